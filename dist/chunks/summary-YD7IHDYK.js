import{a}from"./chunk-6R6UVEBI.js";import"./chunk-YWA7WRVW.js";import"./chunk-ZY2J22QV.js";import"./chunk-EN66KAXS.js";export{a as writeJobSummary};
