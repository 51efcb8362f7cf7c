import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-YMEUSDK7.js";import"./chunk-HHTY35KZ.js";import"./chunk-4IUPHT5O.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
