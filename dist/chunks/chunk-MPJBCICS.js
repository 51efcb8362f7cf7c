import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{h as u}from"./chunk-DBHAS5X3.js";import{a as n}from"./chunk-EN66KAXS.js";var i={read:!0};function o(r,t){if(!r.read)return{refused:r.why};let e=process.env[t];return e===void 0?{unset:!0}:(u(e),{value:e})}n(o,"readSecret");function a(r,t){if(!r.read)return{refused:r.why};let e=process.env[t]?.trim();return e?/^sha256:[0-9a-f]{64}$/.test(e)?{value:e}:{invalid:!0}:{unset:!0}}n(a,"readImageIdPin");export{i as a,o as b,a as c};
