import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-DYJHVWTU.js";import"./chunk-3Z5JEYXB.js";import"./chunk-LAWQR5M4.js";import"./chunk-T5GEZOCE.js";import"./chunk-RUW6YOPC.js";import"./chunk-4EWHVJ7O.js";import"./chunk-ZEFPD4N4.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-SRQQEWPT.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
