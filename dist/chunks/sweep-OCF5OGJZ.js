import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-DK2J34SG.js";import"./chunk-Q6B5DHHH.js";import"./chunk-PXLRREL4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
