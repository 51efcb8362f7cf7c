import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as i}from"./chunk-TXHL7MZJ.js";import{e as n}from"./chunk-U6JA4WCL.js";import"./chunk-JMBIVUYJ.js";import"./chunk-JKLB5XUV.js";import"./chunk-OEJCORYR.js";import"./chunk-J22CF2SK.js";import"./chunk-XZBBPR7S.js";import"./chunk-QRK4UN32.js";import"./chunk-XS6F3H3K.js";import"./chunk-AKWZ67JN.js";import"./chunk-RM22JMBN.js";import"./chunk-4EWHVJ7O.js";import"./chunk-ZEFPD4N4.js";import"./chunk-PZA4RAY2.js";import"./chunk-KQ5LDEAY.js";import"./chunk-ZM6MJ4KH.js";import"./chunk-5NCHYQQW.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
