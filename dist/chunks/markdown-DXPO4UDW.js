import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-SJEWOQHM.js";import"./chunk-OXCLYP27.js";import"./chunk-URLV72G7.js";import"./chunk-K5CJTRQ5.js";import"./chunk-LSXTYJ7A.js";import"./chunk-KT4B4ED4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
