import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b,i as c}from"./chunk-XSCBHTQZ.js";import"./chunk-KDUBH2T7.js";import"./chunk-CBT6ASG3.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
