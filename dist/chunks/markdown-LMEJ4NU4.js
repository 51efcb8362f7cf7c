import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-PXWIGO2F.js";import"./chunk-5ED4GJD7.js";import"./chunk-ACXEV5SR.js";import"./chunk-5GN624I2.js";import"./chunk-7OFWUP4V.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
