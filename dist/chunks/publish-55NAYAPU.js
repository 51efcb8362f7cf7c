import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-JCOBWUUT.js";import"./chunk-ZXTF247V.js";import"./chunk-3WHNQO6S.js";import"./chunk-W4EPPLSV.js";import"./chunk-3KXUNNOW.js";import"./chunk-2IHFC5H3.js";import"./chunk-DFU7IICE.js";import"./chunk-YLZGTWNH.js";import"./chunk-BED4RGAZ.js";import"./chunk-6CLASQB5.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,f as checkTitle,e as contentDigest,d as publishReport,b as startCheckRun};
