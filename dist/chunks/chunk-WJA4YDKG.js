import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as r}from"./chunk-EN66KAXS.js";var n=r((s=!1)=>({info:r(e=>{s||process.stderr.write(`${e}
`)},"info"),warn:r(e=>process.stderr.write(`warning: ${e}
`),"warn"),error:r(e=>process.stderr.write(`error: ${e}
`),"error"),group:r(async(e,o)=>(s||process.stderr.write(`\u2500\u2500 ${e}
`),o()),"group")}),"stderrLogger"),t={info:r(()=>{},"info"),warn:r(()=>{},"warn"),error:r(()=>{},"error"),group:r((s,e)=>e(),"group")};export{n as a,t as b};
