import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b}from"./chunk-Z7JU3BIV.js";import"./chunk-6EJL7FYA.js";import"./chunk-BC2ES4RM.js";import"./chunk-ZY2J22QV.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{b as renderSweep,a as sweepCommand};
