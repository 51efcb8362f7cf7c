import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as e,b as c,c as l}from"./chunk-EN66KAXS.js";var p=l((w,s)=>{var i,t=e(()=>i??=c("node:zlib"),"load");s.exports=new Proxy({},{get:e((o,r)=>t()[r],"get"),has:e((o,r)=>r in t(),"has"),ownKeys:e(()=>Reflect.ownKeys(t()),"ownKeys"),getOwnPropertyDescriptor:e((o,r)=>{let n=Reflect.getOwnPropertyDescriptor(t(),r);return n&&{...n,configurable:!0}},"getOwnPropertyDescriptor")})});export{p as a};
