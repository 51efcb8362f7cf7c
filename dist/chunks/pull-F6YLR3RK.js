import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b}from"./chunk-P6QNGA6J.js";import"./chunk-KC4CLXY3.js";import"./chunk-MGU7OKBG.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-5IAYGZMI.js";import"./chunk-XOOFFWBF.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-ZEFPD4N4.js";import"./chunk-UMU5EJGL.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
