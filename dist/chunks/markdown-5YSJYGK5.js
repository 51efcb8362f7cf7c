import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-LNLA2ZZS.js";import"./chunk-KPEL3CQ3.js";import"./chunk-27ALUMJT.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-5T2HJIE6.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
