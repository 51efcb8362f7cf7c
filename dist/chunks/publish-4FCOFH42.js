import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-CCO232FQ.js";import"./chunk-JRUVHVTG.js";import"./chunk-MQSBQLKS.js";import"./chunk-5K63BW5K.js";import"./chunk-K5CJTRQ5.js";import"./chunk-YYN37GAJ.js";import"./chunk-KT4B4ED4.js";import"./chunk-JJSCSJMX.js";import"./chunk-WJA4YDKG.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,e as checkTitle,d as publishReport,b as startCheckRun};
