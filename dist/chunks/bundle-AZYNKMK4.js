import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as d,b as e,c as f,d as g}from"./chunk-ILO4E2KT.js";import{a,b,d as c}from"./chunk-CYNCP2DR.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-OKJO2KWW.js";import"./chunk-OLMWY2TB.js";import"./chunk-CBT6ASG3.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{b as BUNDLE_FILES,a as SUMS_FILE,f as parseReport,e as readReport,c as record,g as verifyBundle,d as writeBundle};
