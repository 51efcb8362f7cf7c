import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b,h as c}from"./chunk-L54U3PCH.js";import"./chunk-V37N4IIH.js";import"./chunk-CO2WD4WA.js";import"./chunk-EAYIDXJG.js";import"./chunk-ZEFPD4N4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
