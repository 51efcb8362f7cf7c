import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-IZQPKMVA.js";import"./chunk-UHWWBP2Z.js";import"./chunk-5ED4GJD7.js";import"./chunk-CXM3RT6E.js";import"./chunk-MPF4ZAW7.js";import"./chunk-7OFWUP4V.js";import"./chunk-SJN6V6FW.js";import"./chunk-WJA4YDKG.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,d as checkTitle,c as publishReport,b as startCheckRun};
