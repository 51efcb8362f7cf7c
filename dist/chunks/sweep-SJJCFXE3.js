import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-BGT3Z5XY.js";import"./chunk-MAWA3THH.js";import"./chunk-3ZAK47XH.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
