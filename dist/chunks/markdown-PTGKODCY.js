import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-VGUNABAN.js";import"./chunk-JQ6QPUJ7.js";import"./chunk-SVZIL5GT.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EL4BHQTD.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-LRMSU3JF.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
