import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as r}from"./chunk-EN66KAXS.js";var i=r((o=!1)=>({info:r(e=>{o||process.stderr.write(`${e}
`)},"info"),warn:r(e=>process.stderr.write(`warning: ${e}
`),"warn"),error:r(e=>process.stderr.write(`error: ${e}
`),"error"),group:r(async(e,s)=>(o||process.stderr.write(`\u2500\u2500 ${e}
`),s()),"group")}),"stderrLogger"),g={info:r(()=>{},"info"),warn:r(()=>{},"warn"),error:r(()=>{},"error"),group:r((o,e)=>e(),"group")};function a(o,e){let s=r(n=>n.split(`
`).map(t=>`[${e}] ${t}`).join(`
`),"each");return{info:r(n=>o.info(s(n)),"info"),warn:r(n=>o.warn(s(n)),"warn"),error:r(n=>o.error(s(n)),"error"),group:r(async(n,t)=>(o.info(s(`\u2500\u2500 ${n}`)),t()),"group")}}r(a,"prefixedLogger");export{i as a,g as b,a as c};
