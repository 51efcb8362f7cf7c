import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g,h,i,j,k,l,m}from"./chunk-TGPV3PSC.js";import"./chunk-MGU7OKBG.js";import"./chunk-SY57IRQM.js";import"./chunk-OEWBK4WP.js";import"./chunk-WEMFRLTS.js";import"./chunk-EN66KAXS.js";export{a as DEFAULT_CONFIG_PATH,l as MAX_FINDINGS,j as analyseFiles,h as defaultBase,k as fetchPullRequestFiles,f as gitDiffFiles,g as gitTopLevel,b as loadAlignmentConfig,c as parseAlignmentConfig,d as parsePatch,e as parseUnifiedDiff,m as runAlignment,i as summarise};
