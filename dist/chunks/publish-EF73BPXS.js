import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-7NYI36RW.js";import"./chunk-GY5OLKQB.js";import"./chunk-UG637ODD.js";import"./chunk-W4EPPLSV.js";import"./chunk-OUO576NM.js";import"./chunk-2IHFC5H3.js";import"./chunk-LDDH274V.js";import"./chunk-YLZGTWNH.js";import"./chunk-BED4RGAZ.js";import"./chunk-5WRYGT6G.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,f as checkTitle,e as contentDigest,d as publishReport,b as startCheckRun};
