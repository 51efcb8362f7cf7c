import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-R5ECSCKN.js";import"./chunk-MGU7OKBG.js";import"./chunk-Y6XCGEJ4.js";import"./chunk-ZEBM4P6B.js";import"./chunk-5FICAYBU.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
