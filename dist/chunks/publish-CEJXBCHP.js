import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-47KO4US4.js";import"./chunk-OEXLNHYH.js";import"./chunk-5ED4GJD7.js";import"./chunk-CNWEC6UK.js";import"./chunk-OEWBK4WP.js";import"./chunk-SJN6V6FW.js";import"./chunk-WJA4YDKG.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CHECK_NAME,d as checkTitle,c as publishReport,b as startCheckRun};
