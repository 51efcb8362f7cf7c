import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-KRSTMYZ2.js";import"./chunk-5REO7NBH.js";import"./chunk-BSZDN64D.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
