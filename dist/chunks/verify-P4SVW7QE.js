import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-CIVT6IA5.js";import"./chunk-PXA6HBDC.js";import"./chunk-75QSLCBA.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
