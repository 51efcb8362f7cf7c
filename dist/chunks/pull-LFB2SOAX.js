import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-QEWV5NXO.js";import"./chunk-BUGBPUBB.js";import"./chunk-MGU7OKBG.js";import"./chunk-BED4RGAZ.js";import"./chunk-GVYJWUUD.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
