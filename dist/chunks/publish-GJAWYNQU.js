import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-DOGTXY6H.js";import"./chunk-SJEWOQHM.js";import"./chunk-OXCLYP27.js";import"./chunk-URLV72G7.js";import"./chunk-K5CJTRQ5.js";import"./chunk-LSXTYJ7A.js";import"./chunk-KT4B4ED4.js";import"./chunk-JJSCSJMX.js";import"./chunk-WJA4YDKG.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,e as checkTitle,d as publishReport,b as startCheckRun};
