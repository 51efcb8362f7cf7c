import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-ZMZJFEOY.js";import"./chunk-5ANAQX5B.js";import"./chunk-X7THFPOR.js";import"./chunk-V4QRDEM2.js";import"./chunk-ZY2J22QV.js";import"./chunk-4ORCDGTB.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-OLMWY2TB.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-OPVD2B5J.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
