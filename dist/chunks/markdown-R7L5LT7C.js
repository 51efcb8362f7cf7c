import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-GLSMN656.js";import"./chunk-2IHFC5H3.js";import"./chunk-5RCY7M5L.js";import"./chunk-YLZGTWNH.js";import"./chunk-ZEBM4P6B.js";import"./chunk-5FICAYBU.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
