import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{e as n}from"./chunk-Y2LZPEW2.js";import{b as i}from"./chunk-E4AHQYLH.js";import"./chunk-SEM2KVSE.js";import"./chunk-O5IM2EZU.js";import"./chunk-HESUI26B.js";import"./chunk-CO45JFXT.js";import"./chunk-TEJONICO.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-C3PPQGYQ.js";import"./chunk-ISGZULFI.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-PXC6FS5J.js";import"./chunk-3NWV7HXY.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-DBHAS5X3.js";import"./chunk-NS2G42GP.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
