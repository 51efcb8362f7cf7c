import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-F22F3RSB.js";import"./chunk-PDWJFUU7.js";import"./chunk-MLAZVNTM.js";import"./chunk-NT7QMOBD.js";import"./chunk-2LPEF3QJ.js";import"./chunk-HHTY35KZ.js";import"./chunk-4IUPHT5O.js";import"./chunk-NNJWGS6J.js";import"./chunk-3ZAK47XH.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as CHECK_USAGE,e as checkCommand,d as checkContainers,b as parseFilters,c as resolveContainers};
