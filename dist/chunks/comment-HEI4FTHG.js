import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h}from"./chunk-B4FNQWA3.js";import"./chunk-KRSTMYZ2.js";import"./chunk-5REO7NBH.js";import"./chunk-BSZDN64D.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_COMMENT_AUTHOR,f as MIDDLE_PAGES,e as PER_PAGE,b as commentMarker,g as lastPage,d as readState,c as stateMarker,h as upsertStickyComment};
