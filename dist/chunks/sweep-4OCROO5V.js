import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-NDNI7RYX.js";import"./chunk-7PQKO4ER.js";import"./chunk-F27JQSNO.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
