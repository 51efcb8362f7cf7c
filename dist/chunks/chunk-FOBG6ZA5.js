import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as s,g as t}from"./chunk-D6Y4656U.js";import{a as i}from"./chunk-EN66KAXS.js";var e=Object.keys(s);function h(n={}){let o=t({},e,"input"),r=Object.entries(n).filter(([p,u])=>u!==void 0&&e.includes(p));return{...o,...Object.fromEntries(r)}}i(h,"publishingOptions");export{h as a};
