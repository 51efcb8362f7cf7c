import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-3TKFNLZ4.js";import"./chunk-THGDXBFJ.js";import"./chunk-2AEUNCJ6.js";import"./chunk-ZY2J22QV.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
