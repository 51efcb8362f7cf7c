import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-DVIAQ2JI.js";import"./chunk-5LIJGAK3.js";import"./chunk-IKNQ7A4T.js";import"./chunk-PXLRREL4.js";import"./chunk-UAJMHITI.js";import"./chunk-5GN624I2.js";import"./chunk-7OFWUP4V.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
