import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-A3M6QBK6.js";import"./chunk-MGU7OKBG.js";import"./chunk-7PDPJTIO.js";import"./chunk-DBHAS5X3.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as REPORT_MAX_BYTES,b as addedLinesFrom,d as parseJUnit,e as parseSarif,c as readExternalResults};
