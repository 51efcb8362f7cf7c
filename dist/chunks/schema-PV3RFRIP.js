import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{e as m}from"./chunk-KDD33LEN.js";import"./chunk-62JA24VE.js";import{h as s}from"./chunk-SY57IRQM.js";import{a as c,e as a}from"./chunk-OEWBK4WP.js";import{a as n}from"./chunk-WEMFRLTS.js";import{a as o}from"./chunk-EN66KAXS.js";var p="usage: docker-acceptance schema [--report]";function f(e){let t=c.toJSONSchema(e==="inventory"?s:a,{target:"draft-7",io:"input",unrepresentable:"any"}),r=e==="inventory"?"docker-acceptance inventory":"docker-acceptance report",{$schema:i,...u}=t;return`${JSON.stringify({$schema:i,title:r,...u},null,2)}
`}o(f,"schemaText");async function v(e){let{values:t,positionals:r}=m(e,p,{report:{type:"boolean"}});if(r.length>0)throw new n(`unexpected argument ${r[0]}
${p}`);return process.stdout.write(f(t.report?"report":"inventory")),0}o(v,"schemaCommand");export{p as SCHEMA_USAGE,v as schemaCommand,f as schemaText};
