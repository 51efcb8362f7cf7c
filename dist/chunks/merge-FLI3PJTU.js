import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-STBFTPRV.js";import"./chunk-Q5JLNJBY.js";import"./chunk-JQB2MO2K.js";import"./chunk-F27JQSNO.js";import"./chunk-OGT4J5TU.js";import"./chunk-FBFUAUKH.js";import"./chunk-7OFWUP4V.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
