import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-BIVNJBXH.js";import"./chunk-PDOUEHZN.js";import"./chunk-BUGBPUBB.js";import"./chunk-BED4RGAZ.js";import"./chunk-GVYJWUUD.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
