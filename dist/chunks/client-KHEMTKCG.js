import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-HENDA5JY.js";import"./chunk-W4EPPLSV.js";import"./chunk-DBHAS5X3.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
