import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-35IHXWQX.js";import"./chunk-IPMY5T4G.js";import"./chunk-NTMAK7SG.js";import"./chunk-MC3HQ53F.js";import"./chunk-L54U3PCH.js";import"./chunk-V37N4IIH.js";import"./chunk-CO2WD4WA.js";import"./chunk-EAYIDXJG.js";import"./chunk-ZEFPD4N4.js";import"./chunk-H6NWNMJF.js";import"./chunk-YZT5FSJ5.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,d as publishReport,b as startCheckRun};
