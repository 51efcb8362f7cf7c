import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-Y7HU376Q.js";import"./chunk-RAONSBUR.js";import"./chunk-ZY2J22QV.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-EN66KAXS.js";export{a as writeJobSummary};
