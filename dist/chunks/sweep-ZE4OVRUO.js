import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-7UWY6UGD.js";import"./chunk-SYPZXEFY.js";import"./chunk-PXLRREL4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
