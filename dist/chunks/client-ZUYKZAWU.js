import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-SJN6V6FW.js";import"./chunk-WJA4YDKG.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
