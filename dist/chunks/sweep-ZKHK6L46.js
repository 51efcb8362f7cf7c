import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-URWYKJZ4.js";import"./chunk-DK33XCUE.js";import"./chunk-OGONPCOG.js";import"./chunk-ZY2J22QV.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
