import{a as r}from"./chunk-EN66KAXS.js";var i=r((n=!1)=>({info:r(e=>{n||process.stderr.write(`${e}
`)},"info"),warn:r(e=>process.stderr.write(`warning: ${e}
`),"warn"),error:r(e=>process.stderr.write(`error: ${e}
`),"error"),group:r(async(e,s)=>(n||process.stderr.write(`\u2500\u2500 ${e}
`),s()),"group")}),"stderrLogger"),g={info:r(()=>{},"info"),warn:r(()=>{},"warn"),error:r(()=>{},"error"),group:r((n,e)=>e(),"group")};function a(n,e){let s=r(o=>o.split(`
`).map(t=>`[${e}] ${t}`).join(`
`),"each");return{info:r(o=>n.info(s(o)),"info"),warn:r(o=>n.warn(s(o)),"warn"),error:r(o=>n.error(s(o)),"error"),group:r(async(o,t)=>(n.info(s(`\u2500\u2500 ${o}`)),t()),"group")}}r(a,"prefixedLogger");export{i as a,g as b,a as c};
