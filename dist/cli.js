#!/usr/bin/env node
import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as o,c as t,f as p}from"./chunks/chunk-OLMWY2TB.js";import{b as i}from"./chunks/chunk-TQTMOH6S.js";import{a as r,b as w,c as k,e as y}from"./chunks/chunk-EN66KAXS.js";var u=k((v,d)=>{d.exports=w("node:module")});var f=y(u(),1);f.default.enableCompileCache?.();var l=`docker-acceptance ${i}: decides whether a pull request's container can be trusted

usage: docker-acceptance <command> [options]

commands:
  run       build the inventory's subjects and run the lifecycle and containment suites
  check     grade running containers someone else started (never stops or changes them)
  verify    re-verify a report bundle (hashes, schema, completeness, inventory digest)
  merge     merge shard bundles into one report
  sweep     remove leftovers this tool owns (--owner RUN_ID | --stale) and print the evidence
  publish   post the comment and check run from a bundle (the fork-safe second phase)
  align     the alignment review of a local diff
  pin       rewrite the inventory's artifact hashes from the workspace
  schema    print the inventory JSON Schema

exit codes: 0 pass or warn, 1 fail, 2 usage or configuration error, 3 engine or internal error
run 'docker-acceptance <command> --help' for a command's options.`,h={run:`run [--inventory PATH] [--subject NAME]... [--suite lifecycle|containment]... [--shard I/N] [--out DIR]
    [--format text|markdown|json] [--probe-image REF] [--engine auto|docker|podman] [--parallelism N] [--keep-images]
    [--no-require-complete] [--workspace DIR] [--base REF [--head REF] [--alignment-config PATH]]`,check:`check (--container ID|NAME)... (--filter KEY=VALUE)... [--writable-root PATH]... [--allow-cap NAME]... [--network none|bridge|any]
    [--probe-image REF] [--engine auto|docker|podman] [--format text|markdown|json] [--out DIR]`,verify:"verify BUNDLE_DIR [--inventory PATH]",merge:"merge BUNDLE_DIR... --out DIR [--format text|markdown|json]",sweep:"sweep (--owner RUN_ID... | --stale [--older-than 6h]) [--engine auto|docker|podman] [--format text|json]",publish:"publish BUNDLE_DIR",align:"align [--base REF] [--head REF] [--config PATH] [--format text|markdown|json]",pin:"pin [--inventory PATH] [--workspace DIR]",schema:"schema [--report]"},E={run:r(async()=>(await import("./chunks/run-LZ4A67PU.js")).runCommand,"run"),check:r(async()=>(await import("./chunks/check-72CNKQVH.js")).checkCommand,"check"),verify:r(async()=>(await import("./chunks/verify-GVLB2H5T.js")).verifyCommand,"verify"),merge:r(async()=>(await import("./chunks/merge-LZX7VGNW.js")).mergeCommand,"merge"),sweep:r(async()=>(await import("./chunks/sweep-4I7ISXUA.js")).sweepCommand,"sweep"),publish:r(async()=>(await import("./chunks/publish-AVQWZTSK.js")).publishCommand,"publish"),align:r(async()=>(await import("./chunks/align-YY3EH2VQ.js")).alignCommand,"align"),pin:r(async()=>(await import("./chunks/pin-CRYLJV4F.js")).pinCommand,"pin"),schema:r(async()=>(await import("./chunks/schema-YKL7HV3Y.js")).schemaCommand,"schema")};async function b(g){let[e,...a]=g;if(!e||e==="--help"||e==="-h"||e==="help")return process.stdout.write(`${l}
`),e?0:2;if(e==="--version"||e==="-V")return process.stdout.write(`${i}
`),0;let c=E[e];if(!c)return process.stderr.write(`docker-acceptance: unknown command ${JSON.stringify(e)}

${l}
`),2;if(a.includes("--help")||a.includes("-h")){let n=e==="run"||e==="check"?`
options:
${(await import("./chunks/request-options-G3E6MVQG.js")).flagHelp(e)}
`:"";return process.stdout.write(`usage: docker-acceptance ${h[e]}
${n}`),0}try{return await(await c())(a)}catch(n){let m=p(n),s=n instanceof t||n instanceof o||n?.code?.startsWith?.("ERR_PARSE_ARGS");return process.stderr.write(`docker-acceptance ${e}: ${n.message??String(n)}
`),(n instanceof o||s&&!(n instanceof t))&&process.stderr.write(`usage: docker-acceptance ${h[e]}
`),!s&&m===3&&process.env.DA_DEBUG&&process.stderr.write(`${n.stack}
`),s&&!(n instanceof t||n instanceof o)?2:m}}r(b,"main");process.exitCode=await b(process.argv.slice(2));export{b as main};
