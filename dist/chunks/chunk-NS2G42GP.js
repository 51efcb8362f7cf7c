import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as r,c as i}from"./chunk-EN66KAXS.js";var o=i((p,e)=>{e.exports=r("node:fs/promises")});export{o as a};
