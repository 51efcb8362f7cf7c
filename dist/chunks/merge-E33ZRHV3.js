import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-ZTN5IMM3.js";import"./chunk-5LIJGAK3.js";import"./chunk-FSVWHGLO.js";import"./chunk-PB7QHJOG.js";import"./chunk-UER3XIDM.js";import"./chunk-LSXTYJ7A.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
