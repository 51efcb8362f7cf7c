import{a,b,c,d}from"./chunk-F653XXNB.js";import"./chunk-CJVPCJGS.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
