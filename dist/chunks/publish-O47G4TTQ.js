import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-OYHY62PK.js";import"./chunk-ODL6J7SV.js";import"./chunk-5ED4GJD7.js";import"./chunk-ZRWZCSLN.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-SJN6V6FW.js";import"./chunk-WJA4YDKG.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,e as checkTitle,d as publishReport,b as startCheckRun};
