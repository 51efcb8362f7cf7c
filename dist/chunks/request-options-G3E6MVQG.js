import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-VQPBSQDG.js";import"./chunk-OEJCORYR.js";import"./chunk-5SQMYPO4.js";import"./chunk-EN66KAXS.js";export{a as REQUEST_OPTIONS,b as flagHelp};
