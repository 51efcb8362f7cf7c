import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-OUO576NM.js";import"./chunk-2IHFC5H3.js";import"./chunk-LDDH274V.js";import"./chunk-YLZGTWNH.js";import"./chunk-5WRYGT6G.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
