import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-YXAV47LZ.js";import"./chunk-JU5CT4MR.js";import"./chunk-2SVZ6TZC.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
