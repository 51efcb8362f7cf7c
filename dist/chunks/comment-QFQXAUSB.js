import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-EMJ4DP6V.js";import"./chunk-H6NWNMJF.js";import"./chunk-YZT5FSJ5.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_COMMENT_AUTHOR,f as MIDDLE_PAGES,e as PER_PAGE,b as commentMarker,g as lastPage,d as readState,c as stateMarker,h as upsertStickyComment};
