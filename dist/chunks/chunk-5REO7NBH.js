import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as r}from"./chunk-EN66KAXS.js";var i={info:r(()=>{},"info"),warn:r(()=>{},"warn"),error:r(()=>{},"error"),group:r((n,s)=>s(),"group")};function g(n,s){let o=r(e=>e.split(`
`).map(t=>`[${s}] ${t}`).join(`
`),"each");return{info:r(e=>n.info(o(e)),"info"),warn:r(e=>n.warn(o(e)),"warn"),error:r(e=>n.error(o(e)),"error"),group:r(async(e,t)=>(n.info(o(`\u2500\u2500 ${e}`)),t()),"group")}}r(g,"prefixedLogger");export{i as a,g as b};
