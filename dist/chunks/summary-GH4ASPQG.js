import{a}from"./chunk-TLVJISI5.js";import"./chunk-SHMDXDH2.js";import"./chunk-ZY2J22QV.js";import"./chunk-EN66KAXS.js";export{a as writeJobSummary};
