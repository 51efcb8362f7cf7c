import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-DYJI7CWI.js";import"./chunk-KFZWS5F3.js";import"./chunk-RMKSZMOX.js";import"./chunk-3Z5JEYXB.js";import"./chunk-7PDPJTIO.js";import"./chunk-EL4BHQTD.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-LRMSU3JF.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
