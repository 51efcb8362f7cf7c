import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-K4SI7BFT.js";import"./chunk-4S2BM6GO.js";import"./chunk-7PDPJTIO.js";import"./chunk-DBHAS5X3.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as addedLinesFrom,c as parseJUnit,d as parseSarif,b as readExternalResults};
