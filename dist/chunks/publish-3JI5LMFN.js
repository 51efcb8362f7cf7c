import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-65SADJQJ.js";import"./chunk-I77TWP44.js";import"./chunk-GLSMN656.js";import"./chunk-2IHFC5H3.js";import"./chunk-5RCY7M5L.js";import"./chunk-YLZGTWNH.js";import"./chunk-ZEBM4P6B.js";import"./chunk-5FICAYBU.js";import"./chunk-IQYRT6OH.js";import"./chunk-W4EPPLSV.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,f as checkTitle,e as contentDigest,d as publishReport,b as startCheckRun};
