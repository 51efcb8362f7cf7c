import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-XDYTNPP5.js";import"./chunk-5LIJGAK3.js";import"./chunk-O4U2GUCF.js";import"./chunk-PB7QHJOG.js";import"./chunk-Y6XCGEJ4.js";import"./chunk-ZEBM4P6B.js";import"./chunk-5FICAYBU.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
