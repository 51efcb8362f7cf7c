import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-KDD33LEN.js";import"./chunk-62JA24VE.js";import"./chunk-SY57IRQM.js";import"./chunk-OEWBK4WP.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as VERIFY_USAGE,e as parseCommandArgs,d as printable,c as renderVerification,b as verifyCommand};
