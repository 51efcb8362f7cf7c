import{a,b}from"./chunk-WNEZXMCV.js";import"./chunk-SRQQEWPT.js";import"./chunk-EN66KAXS.js";export{b as contextTar,a as readBuildContext};
