import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-FNGVHRI2.js";import"./chunk-EN66KAXS.js";export{a as CLI_COMMANDS};
