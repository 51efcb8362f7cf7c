import{a as s,j as p,k as m}from"./chunk-FDV4I2PN.js";import"./chunk-5WTBLZGD.js";import{a as r}from"./chunk-NCJ4BZAX.js";import"./chunk-OEJCORYR.js";import"./chunk-KQ5LDEAY.js";import{b as i}from"./chunk-FE6IBOPT.js";import{a as t}from"./chunk-EN66KAXS.js";var $="0 pass or warn, 1 fail, 2 usage or configuration error, 3 engine or internal error";function u(n){let o=r[n].positionals,e=o?` ${o.name}${o.max>1?"...":""}`:"",a=p(n);return`docker-acceptance ${n}${e}${a?` ${a}`:""}`}t(u,"usageLine");function C(){let n=Math.max(...s.map(o=>o.length))+2;return`docker-acceptance ${i}: decides whether a pull request's container can be trusted

usage: docker-acceptance <command> [options]

commands:
${s.map(o=>`  ${o.padEnd(n)}${r[o].summary}`).join(`
`)}

exit codes: ${$}
run 'docker-acceptance <command> --help' for a command's options.`}t(C,"mainHelp");function h(){let n=t(e=>e.replaceAll("|","\\|"),"cell");return["| Command | What it does |","| --- | --- |",...s.map(e=>{let{summary:a,note:c}=r[e],l=u(e).replace(/^docker-acceptance /,"");return`| \`${n(l)}\` | ${n(a)}${c?` (${n(c)})`:""} |`})].join(`
`)}t(h,"commandsTable");function x(n){let{note:o}=r[n],e=m(n);return`usage: ${u(n)}
${o?`${o}
`:""}${e?`
options:
${e}
`:""}`}t(x,"commandHelp");export{x as commandHelp,h as commandsTable,C as mainHelp,u as usageLine};
