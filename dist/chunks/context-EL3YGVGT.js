import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-W2FXYA2I.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{b as CONTEXT_MAX_BYTES,a as CONTEXT_MAX_FILES,c as DOCKERIGNORE_MAX_BYTES,g as contextTar,f as isInside,d as parseDockerignore,e as readBuildContext};
