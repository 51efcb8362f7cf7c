import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-QEOXRBDK.js";import"./chunk-WWCTLVTB.js";import"./chunk-HQZS2I3Q.js";import"./chunk-BIEHVH5U.js";import"./chunk-HYDKTNGA.js";import"./chunk-KQ5LDEAY.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
