import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-D5URMJKH.js";import"./chunk-AD6ZY4LY.js";import"./chunk-PDOUEHZN.js";import"./chunk-BC2ES4RM.js";import"./chunk-F6DGGQXE.js";import"./chunk-BUGBPUBB.js";import"./chunk-BED4RGAZ.js";import"./chunk-GVYJWUUD.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
