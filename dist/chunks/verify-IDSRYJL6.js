import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-S6CHLTQK.js";import"./chunk-KTTDSRIG.js";import"./chunk-PRHILMK3.js";import"./chunk-BED4RGAZ.js";import"./chunk-5WRYGT6G.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
