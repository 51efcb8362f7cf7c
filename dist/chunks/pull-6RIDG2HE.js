import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{g as a,h as b}from"./chunk-DXHXQS3O.js";import"./chunk-PRHILMK3.js";import"./chunk-4S2BM6GO.js";import"./chunk-BED4RGAZ.js";import"./chunk-5WRYGT6G.js";import"./chunk-FHIMHPS4.js";import"./chunk-EN66KAXS.js";export{a as checkPullRequest,b as pullRequestMetaFromEvent};
