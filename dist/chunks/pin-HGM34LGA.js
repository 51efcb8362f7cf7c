import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as i}from"./chunk-GOEZATXZ.js";import{e as n}from"./chunk-5CK3Z5ZY.js";import"./chunk-QTQBLBDW.js";import"./chunk-KCMVTLBS.js";import"./chunk-YLM74PFL.js";import"./chunk-I2O2J36H.js";import"./chunk-SVZIL5GT.js";import"./chunk-7PDPJTIO.js";import"./chunk-BFLJ2BVZ.js";import"./chunk-KX3K6PHR.js";import"./chunk-OEJCORYR.js";import"./chunk-MRE6PENT.js";import"./chunk-5IAYGZMI.js";import"./chunk-EL4BHQTD.js";import"./chunk-PZA4RAY2.js";import"./chunk-5SQMYPO4.js";import"./chunk-LRMSU3JF.js";import"./chunk-NS2G42GP.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
