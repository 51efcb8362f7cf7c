import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-K2KBVSQ3.js";import"./chunk-MGU7OKBG.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-V37N4IIH.js";import"./chunk-CO2WD4WA.js";import"./chunk-ZEFPD4N4.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
