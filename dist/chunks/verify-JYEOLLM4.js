import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-KMGKZ4ZM.js";import"./chunk-DVEGTZSC.js";import"./chunk-WTJFP3XT.js";import"./chunk-4ORCDGTB.js";import"./chunk-WZ6FJDOX.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-VZMD5WI2.js";import"./chunk-TQTMOH6S.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
