import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-IHBXX3SD.js";import"./chunk-FZCALZ2M.js";import"./chunk-4MBF37YK.js";import"./chunk-BED4RGAZ.js";import"./chunk-6CLASQB5.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
