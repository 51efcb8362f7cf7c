import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-MINBS6UZ.js";import"./chunk-2IHFC5H3.js";import"./chunk-Z3BSVWNL.js";import"./chunk-Y4UB656H.js";import"./chunk-LN4OK232.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
