import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-4WQQXYNP.js";import"./chunk-6QT247CZ.js";import"./chunk-5ED4GJD7.js";import"./chunk-ZRWZCSLN.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-SJN6V6FW.js";import"./chunk-WJA4YDKG.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,e as checkTitle,d as publishReport,b as startCheckRun};
