import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-UYGH5YYN.js";import"./chunk-L6NGXQWH.js";import"./chunk-JQB2MO2K.js";import"./chunk-3ZAK47XH.js";import"./chunk-OGT4J5TU.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
