import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b,h as c,i as d}from"./chunk-J2O347PZ.js";import"./chunk-WJA4YDKG.js";import"./chunk-SQ4XTH2S.js";import"./chunk-5ED4GJD7.js";import"./chunk-XMNHMMYT.js";import"./chunk-CIVT6IA5.js";import"./chunk-PXA6HBDC.js";import"./chunk-75QSLCBA.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{b as EVENT_FILE,a as PUBLISH_USAGE,d as publishBundle,c as publishCommand};
