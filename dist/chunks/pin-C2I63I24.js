import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as i}from"./chunk-GG42AVA2.js";import{e as n}from"./chunk-TYIQ64GX.js";import"./chunk-BE6KHPX6.js";import"./chunk-BJUQAG3S.js";import"./chunk-TLNDVCT6.js";import"./chunk-G7KCIWEL.js";import"./chunk-FCDWDKNG.js";import"./chunk-4WRP27PS.js";import"./chunk-V4QRDEM2.js";import"./chunk-27ALUMJT.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-KX3K6PHR.js";import"./chunk-OEJCORYR.js";import"./chunk-DBHAS5X3.js";import"./chunk-5IAYGZMI.js";import"./chunk-5T2HJIE6.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-NS2G42GP.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
