import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-WWYC52YE.js";import"./chunk-MGU7OKBG.js";import"./chunk-7PDPJTIO.js";import"./chunk-UMU5EJGL.js";import"./chunk-EN66KAXS.js";export{a as addedLinesFrom,c as parseJUnit,d as parseSarif,b as readExternalResults};
