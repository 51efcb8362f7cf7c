import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-JRUVHVTG.js";import"./chunk-MQSBQLKS.js";import"./chunk-5K63BW5K.js";import"./chunk-K5CJTRQ5.js";import"./chunk-YYN37GAJ.js";import"./chunk-KT4B4ED4.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
