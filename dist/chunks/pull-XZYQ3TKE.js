import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-4TDTNIVQ.js";import"./chunk-MGU7OKBG.js";import"./chunk-U4VT5GGC.js";import"./chunk-YYN37GAJ.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
