import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as f}from"./chunk-XOIBI2LQ.js";import{f as n,g}from"./chunk-OHISMXPD.js";import"./chunk-L62RSGN4.js";import"./chunk-T3SN2J4Y.js";import"./chunk-DOHXQLSH.js";import"./chunk-XZCXP3JA.js";import"./chunk-4ORCDGTB.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-OKJO2KWW.js";import{b as p}from"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-H4QR53M7.js";import"./chunk-TQTMOH6S.js";import{a as c}from"./chunk-OEJCORYR.js";import"./chunk-5SQMYPO4.js";import{a as i}from"./chunk-EN66KAXS.js";var m="usage: docker-acceptance pin [--inventory PATH] [--workspace DIR]";async function w(l){let{values:o,positionals:a}=g(l,m,{inventory:{type:"string",default:c},workspace:{type:"string",default:"."}});if(a.length>0)throw new p(`unexpected argument ${a[0]}
${m}`);let r=o.inventory,t=await f(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}i(w,"pinCommand");export{m as PIN_USAGE,w as pinCommand};
