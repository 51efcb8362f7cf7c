import{a,b,c,d}from"./chunk-RDVFZZBJ.js";import"./chunk-W6ADDUCX.js";import"./chunk-EN66KAXS.js";export{a as PublishError,d as call,b as createGitHubClient,c as toPublishError};
