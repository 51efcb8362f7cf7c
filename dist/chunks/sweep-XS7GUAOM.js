import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-TVY7LFWG.js";import"./chunk-LYXPRC2E.js";import"./chunk-CLZHRSUZ.js";import"./chunk-QPRLNU63.js";import"./chunk-FCDWDKNG.js";import"./chunk-4WRP27PS.js";import"./chunk-ZY2J22QV.js";import"./chunk-V4QRDEM2.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-MGU7OKBG.js";import"./chunk-DBHAS5X3.js";import"./chunk-5IAYGZMI.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweep};
