import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-NU43ATQN.js";import"./chunk-MXCDURML.js";import"./chunk-V443CI4A.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
