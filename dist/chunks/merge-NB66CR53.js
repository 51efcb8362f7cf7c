import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-ISKKYZVK.js";import"./chunk-5LIJGAK3.js";import"./chunk-SSZY2NGW.js";import"./chunk-PXLRREL4.js";import"./chunk-G64UIAKS.js";import"./chunk-TK5AG6KL.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
