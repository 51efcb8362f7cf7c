import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-TLHLB3YX.js";import"./chunk-E4GGJKFT.js";import"./chunk-VAGR3MBD.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-BVQ3QWZU.js";import"./chunk-TQTMOH6S.js";import"./chunk-Z2BOWF57.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EN66KAXS.js";export{b as BUNDLE_FILES,a as SUMS_FILE,d as readReport,e as verifyBundle,c as writeBundle};
