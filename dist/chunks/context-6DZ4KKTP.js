import{a,b}from"./chunk-NQ3PR6ER.js";import"./chunk-SRQQEWPT.js";import"./chunk-EN66KAXS.js";export{b as contextTar,a as readBuildContext};
