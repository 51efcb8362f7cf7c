import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b,h as c,i as d}from"./chunk-6IVEE6TX.js";import"./chunk-WJA4YDKG.js";import"./chunk-ERSMCA2C.js";import"./chunk-5ED4GJD7.js";import"./chunk-2LPEF3QJ.js";import"./chunk-YMEUSDK7.js";import"./chunk-HHTY35KZ.js";import"./chunk-4IUPHT5O.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{b as EVENT_FILE,a as PUBLISH_USAGE,d as publishBundle,c as publishCommand};
