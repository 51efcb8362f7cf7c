import{a,b}from"./chunk-CE4CKTS7.js";import"./chunk-RIRXBSHT.js";import"./chunk-EN66KAXS.js";export{b as contextTar,a as readBuildContext};
