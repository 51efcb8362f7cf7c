import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as p}from"./chunk-ZPUNO6HJ.js";import{d as t,e as g}from"./chunk-WXX3R6NU.js";import"./chunk-OMXSU7SN.js";import"./chunk-77AJMKRM.js";import"./chunk-4ORCDGTB.js";import"./chunk-LURQ6TI5.js";import"./chunk-KEOTNYQY.js";import{b as i}from"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-DFBKWHQH.js";import"./chunk-TQTMOH6S.js";import"./chunk-BFLJ2BVZ.js";import{a as c}from"./chunk-EN66KAXS.js";var f="usage: docker-acceptance pin [--inventory PATH] [--workspace DIR]";async function u(l){let{values:o,positionals:a}=g(l,f,{inventory:{type:"string",default:"acceptance/inventory.json"},workspace:{type:"string",default:"."}});if(a.length>0)throw new i(`unexpected argument ${a[0]}
${f}`);let r=o.inventory,n=await p(r,o.workspace),s=n.filter(e=>e.changed);for(let e of n)process.stdout.write(e.changed?`pinned    ${t(e.path)}  ${e.after} (was ${t(e.before)||"empty"})
`:`unchanged ${t(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${n.length} pins
`:`${r}: all ${n.length} pins already match
`),0}c(u,"pinCommand");export{f as PIN_USAGE,u as pinCommand};
