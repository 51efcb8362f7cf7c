import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{e as n}from"./chunk-ITLPFFHD.js";import{b as i}from"./chunk-TMSB4R37.js";import"./chunk-EAYJWE4I.js";import"./chunk-X3Q5ESKS.js";import"./chunk-PUU6C3K6.js";import"./chunk-CO45JFXT.js";import"./chunk-LRODGMK3.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-VV6KW45O.js";import"./chunk-ISGZULFI.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-MHDDVWGY.js";import"./chunk-BIEHVH5U.js";import"./chunk-HYDKTNGA.js";import"./chunk-KQ5LDEAY.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-7PDPJTIO.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-YFEZ5K2C.js";import"./chunk-NS2G42GP.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
