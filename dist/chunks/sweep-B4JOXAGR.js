import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-GGFXOJJB.js";import"./chunk-MR3VYI4X.js";import"./chunk-OGONPCOG.js";import"./chunk-ZY2J22QV.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
