import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-ATASSXOC.js";import"./chunk-LYYRZ54T.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
