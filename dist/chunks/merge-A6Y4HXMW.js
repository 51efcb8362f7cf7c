import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a}from"./chunk-FFOKKW66.js";import"./chunk-5LIJGAK3.js";import"./chunk-U5645A6D.js";import"./chunk-PB7QHJOG.js";import"./chunk-SKY6HPOJ.js";import"./chunk-VNJWJMIV.js";import"./chunk-KT4B4ED4.js";import"./chunk-BED4RGAZ.js";import"./chunk-EN66KAXS.js";export{a as mergeBundles};
