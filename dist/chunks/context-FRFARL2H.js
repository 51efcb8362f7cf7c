import{a,b}from"./chunk-DQIBBPRH.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{b as contextTar,a as readBuildContext};
