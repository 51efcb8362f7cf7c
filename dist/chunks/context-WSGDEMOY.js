import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-I7VI64JR.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{b as CONTEXT_MAX_BYTES,a as CONTEXT_MAX_FILES,c as DOCKERIGNORE_MAX_BYTES,g as contextTar,f as isInside,d as parseDockerignore,e as readBuildContext};
