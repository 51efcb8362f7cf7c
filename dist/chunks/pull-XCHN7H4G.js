import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-NE7PSWAA.js";import"./chunk-4MBF37YK.js";import"./chunk-MGU7OKBG.js";import"./chunk-BED4RGAZ.js";import"./chunk-6CLASQB5.js";import"./chunk-TQTMOH6S.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
