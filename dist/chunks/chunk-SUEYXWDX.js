import{a as e}from"./chunk-EN66KAXS.js";function n(t){return/^[A-Za-z0-9_@%+=:,./-]+$/.test(t)?t:`'${t.replaceAll("'",`'"'"'`)}'`}e(n,"shellQuote");export{n as a};
