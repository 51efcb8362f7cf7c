import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-Y3Y2EITB.js";import"./chunk-NLHDOW6Z.js";import"./chunk-UER6PZI6.js";import"./chunk-2AEUNCJ6.js";import"./chunk-F6DGGQXE.js";import"./chunk-OMV52ONW.js";import"./chunk-BED4RGAZ.js";import"./chunk-GVYJWUUD.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
