import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-RSGJFW7I.js";import"./chunk-M6MYOXKF.js";import"./chunk-ZY2J22QV.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EN66KAXS.js";export{a as writeJobSummary};
