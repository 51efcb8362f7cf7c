import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-MH7ZVLTF.js";import"./chunk-DS4QDLYX.js";import"./chunk-V4QRDEM2.js";import"./chunk-7PDPJTIO.js";import"./chunk-AZAXM7B7.js";import"./chunk-ZY2J22QV.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-5IAYGZMI.js";import"./chunk-H4QR53M7.js";import"./chunk-TQTMOH6S.js";import"./chunk-5SQMYPO4.js";import"./chunk-EN66KAXS.js";export{b as actionsLogger,c as caseLine,f as finalLine,e as logResults,a as logSafe,d as resultGroups};
