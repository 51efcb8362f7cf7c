import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-2AW644XP.js";import"./chunk-ZRNHDRUM.js";import"./chunk-3WHNQO6S.js";import"./chunk-W4EPPLSV.js";import"./chunk-YPV6XEV6.js";import"./chunk-2IHFC5H3.js";import"./chunk-Q7L7CRAT.js";import"./chunk-YLZGTWNH.js";import"./chunk-BED4RGAZ.js";import"./chunk-GVYJWUUD.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,f as checkTitle,e as contentDigest,d as publishReport,b as startCheckRun};
