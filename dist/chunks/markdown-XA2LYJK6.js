import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-YPV6XEV6.js";import"./chunk-2IHFC5H3.js";import"./chunk-Q7L7CRAT.js";import"./chunk-YLZGTWNH.js";import"./chunk-GVYJWUUD.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
