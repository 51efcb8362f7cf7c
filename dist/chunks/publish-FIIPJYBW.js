import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-B4ZRWPPQ.js";import"./chunk-BIM3JB7H.js";import"./chunk-YIZGMZQD.js";import"./chunk-U33JSE2L.js";import"./chunk-SPYHQGWS.js";import"./chunk-V37N4IIH.js";import"./chunk-CO2WD4WA.js";import"./chunk-EAYIDXJG.js";import"./chunk-ZEFPD4N4.js";import"./chunk-KRSTMYZ2.js";import"./chunk-5REO7NBH.js";import"./chunk-BSZDN64D.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,d as publishReport,b as startCheckRun};
