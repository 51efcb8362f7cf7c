import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as t}from"./chunk-EN66KAXS.js";var r=class extends Error{constructor(i,s,o,g,a=[]){super(`build failed: ${i}`);this.reason=i;this.log=s;this.choice=o;this.failedStep=g;this.intermediateImages=a}reason;log;choice;failedStep;intermediateImages;static{t(this,"BuildFailedError")}name="BuildFailedError"};function l(e){return/^[A-Za-z0-9_@%+=:,./-]+$/.test(e)?e:`'${e.replaceAll("'",`'"'"'`)}'`}t(l,"shellQuote");export{r as a,l as b};
