import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-UCZTAHB6.js";import"./chunk-XDGW4ZZC.js";import"./chunk-BXJRDG6O.js";import"./chunk-X7THFPOR.js";import"./chunk-V4QRDEM2.js";import"./chunk-EE6TJHT7.js";import"./chunk-BLFLLJQZ.js";import"./chunk-4ORCDGTB.js";import"./chunk-GHIMXCXH.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-OLMWY2TB.js";import"./chunk-DFBKWHQH.js";import"./chunk-TQTMOH6S.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
