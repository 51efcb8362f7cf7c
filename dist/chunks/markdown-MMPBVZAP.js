import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-OIH6NTMZ.js";import"./chunk-2IHFC5H3.js";import"./chunk-Y4UB656H.js";import"./chunk-F5WO7DVA.js";import"./chunk-X46L5KGQ.js";import"./chunk-TQTMOH6S.js";import"./chunk-PDZTPJZS.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
