import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-ABYR5LDY.js";import"./chunk-XZBBPR7S.js";import"./chunk-T6HFIJAQ.js";import"./chunk-4EWHVJ7O.js";import"./chunk-ZEFPD4N4.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-SRQQEWPT.js";import"./chunk-EN66KAXS.js";export{b as BUNDLE_FILES,a as SUMS_FILE,f as parseReport,e as readReport,c as record,g as verifyBundle,d as writeBundle};
