import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-JJLOOQDB.js";import"./chunk-XZBBPR7S.js";import"./chunk-V37N4IIH.js";import"./chunk-CO2WD4WA.js";import"./chunk-EAYIDXJG.js";import"./chunk-ZEFPD4N4.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{b as BUNDLE_FILES,a as SUMS_FILE,f as parseReport,e as readReport,c as record,g as verifyBundle,d as writeBundle};
