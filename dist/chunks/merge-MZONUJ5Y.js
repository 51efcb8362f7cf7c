import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-QLDVLLDR.js";import"./chunk-L6NGXQWH.js";import"./chunk-SCHI2R44.js";import"./chunk-3ZAK47XH.js";import"./chunk-K3QZO55W.js";import"./chunk-MPF4ZAW7.js";import"./chunk-7OFWUP4V.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
