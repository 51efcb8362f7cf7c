import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-SQ4XTH2S.js";import"./chunk-5ED4GJD7.js";import"./chunk-XMNHMMYT.js";import"./chunk-75QSLCBA.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
