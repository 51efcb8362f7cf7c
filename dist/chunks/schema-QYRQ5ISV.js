import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-7IIP5ZDN.js";import"./chunk-3Z5JEYXB.js";import"./chunk-RFJMQXYM.js";import"./chunk-2ZZEOWVW.js";import"./chunk-XRQ5ZIIF.js";import"./chunk-4EWHVJ7O.js";import"./chunk-ZEFPD4N4.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-SRQQEWPT.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
