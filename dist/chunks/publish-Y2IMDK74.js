import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-HEHGCZ6S.js";import"./chunk-PXWIGO2F.js";import"./chunk-5ED4GJD7.js";import"./chunk-ACXEV5SR.js";import"./chunk-5GN624I2.js";import"./chunk-7OFWUP4V.js";import"./chunk-SZMV3E7Z.js";import"./chunk-WJA4YDKG.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,e as checkTitle,d as publishReport,b as startCheckRun};
