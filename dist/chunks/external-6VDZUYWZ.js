import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-AZ3UOHZZ.js";import"./chunk-4S2BM6GO.js";import"./chunk-7PDPJTIO.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as REPORT_MAX_BYTES,b as addedLinesFrom,d as parseJUnit,e as parseSarif,c as readExternalResults};
