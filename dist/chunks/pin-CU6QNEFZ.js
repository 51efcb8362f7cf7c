import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as i}from"./chunk-SSIOGQAC.js";import{e as n}from"./chunk-2VZP3YPR.js";import"./chunk-LOKELNGS.js";import"./chunk-AKLPWQPQ.js";import"./chunk-OEJCORYR.js";import"./chunk-ABYR5LDY.js";import"./chunk-XZBBPR7S.js";import"./chunk-LAWQR5M4.js";import"./chunk-T5GEZOCE.js";import"./chunk-RUW6YOPC.js";import"./chunk-T6HFIJAQ.js";import"./chunk-4EWHVJ7O.js";import"./chunk-ZEFPD4N4.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-SRQQEWPT.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
