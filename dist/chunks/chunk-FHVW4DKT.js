import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as e}from"./chunk-EN66KAXS.js";function a(t=9e3){let i=new AbortController,o,r=e(n=>{o||(o=n,process.stderr.write(`docker-acceptance: ${n} received, cleaning up what this run owns\u2026
`),i.abort(n),setTimeout(()=>process.exit(s(n)),t).unref())},"handler");return process.on("SIGINT",r),process.on("SIGTERM",r),{signal:i.signal,received:e(()=>o,"received"),dispose:e(()=>{process.off("SIGINT",r),process.off("SIGTERM",r)},"dispose")}}e(a,"abortOnSignals");function s(t){return t==="SIGINT"?130:143}e(s,"signalExitCode");export{a,s as b};
