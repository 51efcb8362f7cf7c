import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-KL2J6JHW.js";import"./chunk-KCMVTLBS.js";import"./chunk-YLM74PFL.js";import"./chunk-3Z5JEYXB.js";import"./chunk-7PDPJTIO.js";import"./chunk-EL4BHQTD.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-LRMSU3JF.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
