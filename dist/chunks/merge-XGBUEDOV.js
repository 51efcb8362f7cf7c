import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-5TDI746D.js";import"./chunk-5LIJGAK3.js";import"./chunk-TSEYAODV.js";import"./chunk-PXLRREL4.js";import"./chunk-RXULCAYS.js";import"./chunk-WR2DNMJG.js";import"./chunk-7OFWUP4V.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
