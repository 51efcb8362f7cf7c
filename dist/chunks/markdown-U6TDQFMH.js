import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-HVGCLWTH.js";import"./chunk-2IHFC5H3.js";import"./chunk-I2ZNNNFR.js";import"./chunk-Y4UB656H.js";import"./chunk-DFBKWHQH.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
