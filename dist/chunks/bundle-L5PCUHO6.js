import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-DVEGTZSC.js";import"./chunk-WTJFP3XT.js";import"./chunk-WZ6FJDOX.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-VZMD5WI2.js";import"./chunk-TQTMOH6S.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EN66KAXS.js";export{b as BUNDLE_FILES,a as SUMS_FILE,d as readReport,e as verifyBundle,c as writeBundle};
