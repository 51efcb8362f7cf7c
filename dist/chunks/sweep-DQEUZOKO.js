import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-2PJBHRIJ.js";import"./chunk-7NFIHTCN.js";import"./chunk-PB7QHJOG.js";import"./chunk-CGOBFFKR.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
