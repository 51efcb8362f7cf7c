import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-ERSMCA2C.js";import"./chunk-5ED4GJD7.js";import"./chunk-2LPEF3QJ.js";import"./chunk-4IUPHT5O.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
