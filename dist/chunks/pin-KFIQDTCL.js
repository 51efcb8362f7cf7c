import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as i}from"./chunk-6R4PQRCD.js";import{e as n}from"./chunk-KAXTBK43.js";import"./chunk-X2QGXOVE.js";import"./chunk-UKPMQBS4.js";import"./chunk-RMKSZMOX.js";import"./chunk-KEDNK5BM.js";import"./chunk-JC737LAF.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-OKJO2KWW.js";import"./chunk-OLMWY2TB.js";import"./chunk-5IAYGZMI.js";import"./chunk-LN4OK232.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-TQTMOH6S.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
