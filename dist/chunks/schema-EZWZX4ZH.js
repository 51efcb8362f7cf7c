import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-QDQ2BWKK.js";import"./chunk-72KMJOOY.js";import"./chunk-JJOOIKPE.js";import"./chunk-3Z5JEYXB.js";import"./chunk-7PDPJTIO.js";import"./chunk-VW6ZHKZP.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
