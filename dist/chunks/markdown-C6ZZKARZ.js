import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-TWBMXS5S.js";import"./chunk-2IHFC5H3.js";import"./chunk-Y4UB656H.js";import"./chunk-RWCU6E7R.js";import"./chunk-AMTVDNBP.js";import"./chunk-TQTMOH6S.js";import"./chunk-PDZTPJZS.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
