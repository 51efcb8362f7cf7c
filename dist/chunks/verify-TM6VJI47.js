import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-DV6P67Q5.js";import"./chunk-SCHI2R44.js";import"./chunk-K3QZO55W.js";import"./chunk-MPF4ZAW7.js";import"./chunk-7OFWUP4V.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
