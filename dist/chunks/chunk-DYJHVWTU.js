import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{l as n}from"./chunk-LAWQR5M4.js";import{c as o}from"./chunk-4EWHVJ7O.js";import{c as r}from"./chunk-PZA4RAY2.js";import{a as t}from"./chunk-EN66KAXS.js";function p(e){let c=r(e==="inventory"?n:o,{target:"draft-7",io:"input",unrepresentable:"any"}),s=e==="inventory"?"docker-acceptance inventory":"docker-acceptance report",{$schema:a,...m}=c;return`${JSON.stringify({$schema:a,title:s,...m},null,2)}
`}t(p,"schemaText");async function f(e){return process.stdout.write(p(e.reportSchema?"report":"inventory")),0}t(f,"schema");export{p as a,f as b};
