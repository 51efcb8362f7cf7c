import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-B6ZFGAXU.js";import"./chunk-3Z5JEYXB.js";import"./chunk-VQVYDMEY.js";import"./chunk-XS6F3H3K.js";import"./chunk-LZW3A2XX.js";import"./chunk-4EWHVJ7O.js";import"./chunk-ZEFPD4N4.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-SRQQEWPT.js";import"./chunk-EN66KAXS.js";export{b as schema,a as schemaText};
