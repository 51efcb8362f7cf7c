import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-D3M4LJH5.js";import"./chunk-O4U2GUCF.js";import"./chunk-Y6XCGEJ4.js";import"./chunk-ZEBM4P6B.js";import"./chunk-5FICAYBU.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
