import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-CL7BLIBB.js";import"./chunk-W4EPPLSV.js";import"./chunk-UMU5EJGL.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
