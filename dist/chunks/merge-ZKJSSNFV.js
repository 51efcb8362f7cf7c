import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-XD7SPMEF.js";import"./chunk-5LIJGAK3.js";import"./chunk-DIAQWGHL.js";import"./chunk-PXLRREL4.js";import"./chunk-CSXK7RD5.js";import"./chunk-ZWPJSBNR.js";import"./chunk-7OFWUP4V.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
