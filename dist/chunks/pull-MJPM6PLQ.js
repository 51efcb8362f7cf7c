import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-JBZNNCGS.js";import"./chunk-MGU7OKBG.js";import"./chunk-OKJO2KWW.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-AMTVDNBP.js";import"./chunk-TQTMOH6S.js";import"./chunk-OEJCORYR.js";import"./chunk-PDZTPJZS.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
