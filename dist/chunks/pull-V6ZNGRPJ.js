import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-YFXT7KCZ.js";import"./chunk-OKJO2KWW.js";import"./chunk-OEJCORYR.js";import"./chunk-MGU7OKBG.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-CBT6ASG3.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
