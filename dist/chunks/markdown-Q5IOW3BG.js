import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-R24OTQVE.js";import"./chunk-2IHFC5H3.js";import"./chunk-Y4UB656H.js";import"./chunk-GGVGT5CM.js";import"./chunk-XZRX6ILT.js";import"./chunk-TQTMOH6S.js";import"./chunk-KBXEZKFA.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
