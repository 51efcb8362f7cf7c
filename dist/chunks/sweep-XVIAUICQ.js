import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-M2F7AVS6.js";import"./chunk-RYR4UKRM.js";import"./chunk-2AEUNCJ6.js";import"./chunk-CGOBFFKR.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
