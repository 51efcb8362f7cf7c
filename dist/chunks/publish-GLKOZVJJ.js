import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-2VRATILJ.js";import"./chunk-BNMT5UWL.js";import"./chunk-MJOZI64Q.js";import"./chunk-2IHFC5H3.js";import"./chunk-FEWSO4GA.js";import"./chunk-YLZGTWNH.js";import"./chunk-VNJWJMIV.js";import"./chunk-KT4B4ED4.js";import"./chunk-JEPLM4OG.js";import"./chunk-WJA4YDKG.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,c as abandonCheckRun,f as checkTitle,e as contentDigest,d as publishReport,b as startCheckRun};
