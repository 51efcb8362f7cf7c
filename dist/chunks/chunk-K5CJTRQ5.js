import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as n}from"./chunk-EN66KAXS.js";function i(t){return/^RFC\b[\s_-]*#?\s*\d*\s*[:.\u2013\u2014-]\s*(\S.*)$/i.exec(t)?.[1]??t}n(i,"withoutRfcPrefix");function e(t,r){let s=i(r);return t===null?s:s===""||new RegExp(`^RFC[\\s_-]*#?0*${t}$`,"i").test(s)?`RFC ${t}`:`RFC ${t}: ${s}`}n(e,"rfcLabel");export{i as a,e as b};
