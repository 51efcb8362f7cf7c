import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-CRHGBAAZ.js";import"./chunk-OFNZ7TGV.js";import"./chunk-EAYIDXJG.js";import"./chunk-ZEFPD4N4.js";import"./chunk-EN66KAXS.js";export{b as actionsLogger,c as caseLine,e as logResults,a as logSafe,d as resultGroups};
