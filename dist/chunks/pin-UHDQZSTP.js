import{b as i}from"./chunk-RAKDMKBV.js";import{e as n}from"./chunk-4USKSZ3O.js";import"./chunk-R6JHWL4J.js";import"./chunk-LS7ANHNU.js";import"./chunk-OEJCORYR.js";import"./chunk-IK2PDBZ4.js";import"./chunk-MIK4AVQM.js";import"./chunk-R5SLZUEE.js";import"./chunk-VVLIJQM5.js";import"./chunk-CHN64WI4.js";import"./chunk-I2NTPG4S.js";import"./chunk-D6V4256Q.js";import"./chunk-MD4XOHNZ.js";import"./chunk-RB73RYCW.js";import"./chunk-IBHWSPUA.js";import"./chunk-KQ5LDEAY.js";import"./chunk-FE6IBOPT.js";import"./chunk-RIRXBSHT.js";import{a}from"./chunk-EN66KAXS.js";async function f(o){let r=o.inventory,t=await i(r,o.workspace),s=t.filter(e=>e.changed);for(let e of t)process.stdout.write(e.changed?`pinned    ${n(e.path)}  ${e.after} (was ${n(e.before)||"empty"})
`:`unchanged ${n(e.path)}  ${e.after}
`);return process.stdout.write(s.length>0?`${r}: rewrote ${s.length} of ${t.length} pins
`:`${r}: all ${t.length} pins already match
`),0}a(f,"pin");export{f as pin};
