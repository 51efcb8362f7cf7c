import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-PW4I7KJX.js";import"./chunk-ZBOXCQDO.js";import"./chunk-QXYWWXXY.js";import"./chunk-CLZHRSUZ.js";import"./chunk-FTNJMLO5.js";import"./chunk-W4IPJO5D.js";import"./chunk-ISGZULFI.js";import"./chunk-75CJSSTG.js";import"./chunk-ZY2J22QV.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-UMU5EJGL.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweep};
