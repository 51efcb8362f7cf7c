import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-7ZKQEGTJ.js";import"./chunk-L6NGXQWH.js";import"./chunk-62JA24VE.js";import"./chunk-3ZAK47XH.js";import"./chunk-SY57IRQM.js";import"./chunk-OEWBK4WP.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
