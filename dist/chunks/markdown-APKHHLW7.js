import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-ANJHVSXY.js";import"./chunk-2IHFC5H3.js";import"./chunk-Y4UB656H.js";import"./chunk-AZAXM7B7.js";import"./chunk-H4QR53M7.js";import"./chunk-TQTMOH6S.js";import"./chunk-5SQMYPO4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
