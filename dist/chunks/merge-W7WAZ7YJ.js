import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-MECSRUKE.js";import"./chunk-5LIJGAK3.js";import"./chunk-DLQHCAFZ.js";import"./chunk-PXLRREL4.js";import"./chunk-U4VT5GGC.js";import"./chunk-YYN37GAJ.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
