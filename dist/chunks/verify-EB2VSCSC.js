import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-DAYPJ6GS.js";import"./chunk-JQB2MO2K.js";import"./chunk-OGT4J5TU.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
