import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-2N4ZLNWG.js";import"./chunk-ATASSXOC.js";import"./chunk-LYYRZ54T.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_COMMENT_AUTHOR,f as MIDDLE_PAGES,e as PER_PAGE,b as commentMarker,g as lastPage,d as readState,c as stateMarker,h as upsertStickyComment};
