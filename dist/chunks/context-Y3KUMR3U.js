import{a,b}from"./chunk-5RUB2EVV.js";import"./chunk-M3XZLUSX.js";import"./chunk-EN66KAXS.js";export{b as contextTar,a as readBuildContext};
