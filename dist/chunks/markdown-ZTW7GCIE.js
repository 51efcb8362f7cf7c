import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-RZ333QH7.js";import"./chunk-J733AYMI.js";import"./chunk-MHDDVWGY.js";import"./chunk-BIEHVH5U.js";import"./chunk-HYDKTNGA.js";import"./chunk-KQ5LDEAY.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
