import{b as i}from"./chunk-KUA7DTCJ.js";import{e as n}from"./chunk-74XMWFNQ.js";import"./chunk-SJKWGEJ3.js";import"./chunk-RN4HD3MW.js";import"./chunk-OEJCORYR.js";import"./chunk-4P3ZJRU7.js";import"./chunk-5K6IBB7A.js";import"./chunk-R5SLZUEE.js";import"./chunk-WXAPFZZL.js";import"./chunk-IFFC3RYA.js";import"./chunk-T6UXOMLL.js";import"./chunk-T6HFIJAQ.js";import"./chunk-TKR4ZK5K.js";import"./chunk-ZEFPD4N4.js";import"./chunk-IBHWSPUA.js";import"./chunk-KQ5LDEAY.js";import"./chunk-FE6IBOPT.js";import"./chunk-SRQQEWPT.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
