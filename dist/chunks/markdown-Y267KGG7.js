import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-MJOZI64Q.js";import"./chunk-2IHFC5H3.js";import"./chunk-FEWSO4GA.js";import"./chunk-YLZGTWNH.js";import"./chunk-VNJWJMIV.js";import"./chunk-KT4B4ED4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
