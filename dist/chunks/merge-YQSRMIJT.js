import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-UUTINUOP.js";import"./chunk-SLQKTNK3.js";import"./chunk-FZCALZ2M.js";import"./chunk-BC2ES4RM.js";import"./chunk-F6DGGQXE.js";import"./chunk-4MBF37YK.js";import"./chunk-BED4RGAZ.js";import"./chunk-6CLASQB5.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
