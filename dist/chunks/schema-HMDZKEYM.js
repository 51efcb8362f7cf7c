import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-PLR7JCQ2.js";import"./chunk-XCALA7QD.js";import"./chunk-7Z6FOOLG.js";import"./chunk-3Z5JEYXB.js";import"./chunk-7PDPJTIO.js";import"./chunk-VW6ZHKZP.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
