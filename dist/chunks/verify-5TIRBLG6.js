import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-WXIZD7QK.js";import"./chunk-DLQHCAFZ.js";import"./chunk-U4VT5GGC.js";import"./chunk-YYN37GAJ.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
