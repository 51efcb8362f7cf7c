import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-WCTGD22N.js";import"./chunk-U5645A6D.js";import"./chunk-SKY6HPOJ.js";import"./chunk-VNJWJMIV.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
