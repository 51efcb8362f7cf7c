import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-KLYXNNUA.js";import"./chunk-R4K2QLNQ.js";import"./chunk-PXC6FS5J.js";import"./chunk-3NWV7HXY.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
