import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-ITPYXK3F.js";import"./chunk-HPPF2RJZ.js";import"./chunk-QY3VNTN3.js";import"./chunk-NT7QMOBD.js";import"./chunk-XMNHMMYT.js";import"./chunk-PXA6HBDC.js";import"./chunk-75QSLCBA.js";import"./chunk-NNJWGS6J.js";import"./chunk-3ZAK47XH.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as CHECK_USAGE,e as checkCommand,d as checkContainers,b as parseFilters,c as resolveContainers};
