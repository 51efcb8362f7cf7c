import{a}from"./chunk-NCJ4BZAX.js";import"./chunk-EN66KAXS.js";export{a as CLI_COMMANDS};
