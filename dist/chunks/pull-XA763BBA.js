import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b}from"./chunk-44ERG2QO.js";import"./chunk-KC4CLXY3.js";import"./chunk-MGU7OKBG.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-5IAYGZMI.js";import"./chunk-3NWV7HXY.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-DBHAS5X3.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
