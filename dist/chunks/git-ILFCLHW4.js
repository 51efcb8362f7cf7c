import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-BMIZGLL4.js";import"./chunk-BLFLLJQZ.js";import"./chunk-4ORCDGTB.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{b as checkRef,f as defaultBase,a as execFileAsync,c as git,e as gitTopLevel,g as gitTree,d as verifyRef};
