import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-OMXSU7SN.js";import"./chunk-77AJMKRM.js";import"./chunk-LURQ6TI5.js";import"./chunk-KEOTNYQY.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-DFBKWHQH.js";import"./chunk-TQTMOH6S.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EN66KAXS.js";export{b as BUNDLE_FILES,a as SUMS_FILE,d as readReport,e as verifyBundle,c as writeBundle};
