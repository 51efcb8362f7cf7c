import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-GUOC4O7G.js";import"./chunk-5LIJGAK3.js";import"./chunk-DVFCA57D.js";import"./chunk-PXLRREL4.js";import"./chunk-JKMPEXGA.js";import"./chunk-WR2DNMJG.js";import"./chunk-7OFWUP4V.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
