import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{e as n}from"./chunk-MPXKG3XE.js";import{b as i}from"./chunk-JX2WI2RS.js";import"./chunk-ZOE7FBJU.js";import"./chunk-IGHZQA36.js";import"./chunk-6JA63AK4.js";import"./chunk-CO45JFXT.js";import"./chunk-IZCR6OKX.js";import"./chunk-XZBBPR7S.js";import"./chunk-OEJCORYR.js";import"./chunk-W4IPJO5D.js";import"./chunk-ISGZULFI.js";import"./chunk-V4QRDEM2.js";import"./chunk-5IAYGZMI.js";import"./chunk-7PDPJTIO.js";import"./chunk-XOOFFWBF.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-RM22JMBN.js";import"./chunk-ZEFPD4N4.js";import"./chunk-UMU5EJGL.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
