import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-VMDG5MUQ.js";import"./chunk-M6MYOXKF.js";import"./chunk-ZY2J22QV.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-RM22JMBN.js";import"./chunk-ZEFPD4N4.js";import"./chunk-EN66KAXS.js";export{b as actionsLogger,c as caseLine,e as logResults,a as logSafe,d as resultGroups};
