import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b}from"./chunk-7KZ7VRAN.js";import"./chunk-KC4CLXY3.js";import"./chunk-OKJO2KWW.js";import"./chunk-OEJCORYR.js";import"./chunk-MGU7OKBG.js";import"./chunk-LOPMICXL.js";import"./chunk-5IAYGZMI.js";import"./chunk-APECH6RX.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-7O3HAQFQ.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
