import{a,b}from"./chunk-3LLMLFTD.js";import"./chunk-ZHOBOZ6P.js";import"./chunk-EN66KAXS.js";export{b as contextTar,a as readBuildContext};
