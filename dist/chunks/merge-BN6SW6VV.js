import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-4IJV4BB7.js";import"./chunk-5LIJGAK3.js";import"./chunk-MXCDURML.js";import"./chunk-2SVZ6TZC.js";import"./chunk-V443CI4A.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
