import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-EQ2GMW4E.js";import"./chunk-DAEEBOWD.js";import"./chunk-SZBNAY3M.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-APECH6RX.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-7O3HAQFQ.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
