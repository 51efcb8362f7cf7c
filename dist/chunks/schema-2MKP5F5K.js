import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{e as m}from"./chunk-CIVT6IA5.js";import{g as s}from"./chunk-PXA6HBDC.js";import{a as n,e as c}from"./chunk-75QSLCBA.js";import{a}from"./chunk-WEMFRLTS.js";import{a as o}from"./chunk-EN66KAXS.js";var p="usage: docker-acceptance schema [--report]";function f(e){let t=n.toJSONSchema(e==="inventory"?s:c,{target:"draft-7",io:"input",unrepresentable:"any"}),r=e==="inventory"?"docker-acceptance inventory":"docker-acceptance report",{$schema:i,...u}=t;return`${JSON.stringify({$schema:i,title:r,...u},null,2)}
`}o(f,"schemaText");async function v(e){let{values:t,positionals:r}=m(e,p,{report:{type:"boolean"}});if(r.length>0)throw new a(`unexpected argument ${r[0]}
${p}`);return process.stdout.write(f(t.report?"report":"inventory")),0}o(v,"schemaCommand");export{p as SCHEMA_USAGE,v as schemaCommand,f as schemaText};
