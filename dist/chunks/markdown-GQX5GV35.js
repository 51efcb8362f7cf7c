import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c}from"./chunk-OEXLNHYH.js";import"./chunk-5ED4GJD7.js";import"./chunk-CNWEC6UK.js";import"./chunk-OEWBK4WP.js";import"./chunk-EN66KAXS.js";export{a as BUDGETS,b as measure,c as renderMarkdown};
