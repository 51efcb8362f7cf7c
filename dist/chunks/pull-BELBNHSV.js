import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-Z7EC2RFE.js";import"./chunk-MGU7OKBG.js";import"./chunk-UER3XIDM.js";import"./chunk-LSXTYJ7A.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
