import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{e as i,g as a}from"./chunk-RAONSBUR.js";import{g as l}from"./chunk-YFEZ5K2C.js";import{a as t}from"./chunk-EN66KAXS.js";function g(e){let c=t(n=>{let o=n instanceof Error?n:new Error(String(n)),r=(o.stack??"").split(`
`).slice(1,4).map(p=>p.trim()),s=`${l(`docker-acceptance ${e}: internal error: ${o.name}: ${o.message}`).replace(/\s+/g," ").replace(/##\[/g,"#\u200B#[").slice(0,1e3)}${r.length?` (${r.join(" < ")})`:""}`;e==="main"?i(s):a(s,{title:"docker-acceptance post step failed"}),process.exit(e==="main"?3:0)},"end");process.on("uncaughtException",c),process.on("unhandledRejection",c)}t(g,"installLastResort");export{g as a};
