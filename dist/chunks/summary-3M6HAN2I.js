import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-FWG33QGT.js";import"./chunk-OFNZ7TGV.js";import"./chunk-EN66KAXS.js";export{a as writeJobSummary};
