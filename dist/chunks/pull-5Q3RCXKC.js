import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-A6Q6HMBD.js";import"./chunk-MGU7OKBG.js";import"./chunk-SKY6HPOJ.js";import"./chunk-VNJWJMIV.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
