import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-M6LRXBIC.js";import"./chunk-XG63Z3R2.js";import"./chunk-KTTDSRIG.js";import"./chunk-OGONPCOG.js";import"./chunk-F6DGGQXE.js";import"./chunk-PRHILMK3.js";import"./chunk-BED4RGAZ.js";import"./chunk-5WRYGT6G.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
