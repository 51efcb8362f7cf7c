import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as e}from"./chunk-RAONSBUR.js";import{a as r}from"./chunk-EN66KAXS.js";async function a(t){return process.env.GITHUB_STEP_SUMMARY?(await e.emptyBuffer().addRaw(t,!0).write(),!0):!1}r(a,"writeJobSummary");export{a};
