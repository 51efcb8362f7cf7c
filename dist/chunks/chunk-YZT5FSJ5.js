import{a as r}from"./chunk-EN66KAXS.js";var i={info:r(()=>{},"info"),warn:r(()=>{},"warn"),error:r(()=>{},"error"),group:r((o,s)=>s(),"group")};function g(o,s){let n=r(e=>e.split(`
`).map(t=>`[${s}] ${t}`).join(`
`),"each");return{info:r(e=>o.info(n(e)),"info"),warn:r(e=>o.warn(n(e)),"warn"),error:r(e=>o.error(n(e)),"error"),group:r(async(e,t)=>(o.info(n(`\u2500\u2500 ${e}`)),t()),"group")}}r(g,"prefixedLogger");export{i as a,g as b};
