import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as e,c as n}from"./chunk-EN66KAXS.js";var c=n((s,o)=>{function t(){throw new Error("this Docker transport is not supported by docker-acceptance; use a unix socket or tcp:// DOCKER_HOST")}e(t,"unsupported");var r=class{static{e(this,"Client")}constructor(){t()}};o.exports={Client:r,Server:r,HttpClient:r,BearerCredentialHandler:r,loadSync:t,loadPackageDefinition:t}});export{c as a};
