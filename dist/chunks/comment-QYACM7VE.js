import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-OTLVEMLF.js";import"./chunk-HENDA5JY.js";import"./chunk-W4EPPLSV.js";import"./chunk-DBHAS5X3.js";import"./chunk-NS2G42GP.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_COMMENT_AUTHOR,f as MIDDLE_PAGES,e as PER_PAGE,b as commentMarker,g as lastPage,d as readState,c as stateMarker,h as upsertStickyComment};
