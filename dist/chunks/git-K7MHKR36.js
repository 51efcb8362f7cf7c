import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-MTAXIHKT.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{b as checkRef,f as defaultBase,a as execFileAsync,c as git,e as gitTopLevel,g as gitTree,d as verifyRef};
