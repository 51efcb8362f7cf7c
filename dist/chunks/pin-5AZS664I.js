import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{d as t,e as g}from"./chunk-D3M4LJH5.js";import{b as p}from"./chunk-N6FSECH4.js";import"./chunk-O4U2GUCF.js";import"./chunk-Y6XCGEJ4.js";import"./chunk-ZEBM4P6B.js";import"./chunk-5FICAYBU.js";import{a as i}from"./chunk-BED4RGAZ.js";import{a as c}from"./chunk-EN66KAXS.js";var f="usage: docker-acceptance pin [--inventory PATH] [--workspace DIR]";async function u(l){let{values:o,positionals:a}=g(l,f,{inventory:{type:"string",default:"acceptance/inventory.json"},workspace:{type:"string",default:"."}});if(a.length>0)throw new i(`unexpected argument ${a[0]}
${f}`);let r=o.inventory,n=await p(r,o.workspace),s=n.filter(e=>e.changed);for(let e of n)process.stdout.write(e.changed?`pinned    ${t(e.path)}  ${e.after} (was ${t(e.before)||"empty"})
`:`unchanged ${t(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${n.length} pins
`:`${r}: all ${n.length} pins already match
`),0}c(u,"pinCommand");export{f as PIN_USAGE,u as pinCommand};
