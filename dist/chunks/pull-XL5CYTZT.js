import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{f as a,g as b}from"./chunk-K6DQJU7L.js";import"./chunk-OJTBGZNM.js";import"./chunk-4S2BM6GO.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-5IAYGZMI.js";import"./chunk-BIEHVH5U.js";import"./chunk-HYDKTNGA.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
