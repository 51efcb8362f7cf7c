#!/usr/bin/env node
import{b as d}from"./chunks/chunk-FE6IBOPT.js";import{a as c,b as p,f as u}from"./chunks/chunk-RIRXBSHT.js";import{a,b as g,c as h,e as E}from"./chunks/chunk-EN66KAXS.js";var l=h(($,f)=>{f.exports=g("node:module")});var w=E(l(),1);async function C(t){let[e,...s]=t,n=await import("./chunks/help-JRISSIXP.js");if(!e||e==="--help"||e==="-h"||e==="help")return process.stdout.write(`${n.mainHelp()}
`),e?0:2;if(e==="--version"||e==="-V")return process.stdout.write(`${d}
`),0;let{CLI_COMMANDS:i}=await import("./chunks/commands-7TDVROH3.js");if(!Object.hasOwn(i,e))return process.stderr.write(`docker-acceptance: unknown command ${JSON.stringify(e)}

${n.mainHelp()}
`),2;let o=e;if(s.includes("--help")||s.includes("-h"))return process.stdout.write(n.commandHelp(o)),0;try{return await O(o,s)}catch(r){let m=u(r);return process.stderr.write(`docker-acceptance ${e}: ${r.message??String(r)}
`),r instanceof c&&process.stderr.write(`usage: ${n.usageLine(o)}
`),!(r instanceof p||r instanceof c)&&m===3&&process.env.DA_DEBUG&&process.stderr.write(`${r.stack}
`),m}}a(C,"main");async function O(t,e){let[{USE_CASES:s},{parseCommandLine:n}]=await Promise.all([import("./chunks/use-cases-PMVHKYVJ.js"),import("./chunks/parse-YVDZ7GMN.js")]),{request:i,positionals:o}=n(t,e);return(await s[t]())(i,o)}a(O,"runCommandLine");w.default.enableCompileCache?.();process.exitCode=await C(process.argv.slice(2));
