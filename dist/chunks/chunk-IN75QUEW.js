import{a as m,b as A}from"./chunk-PWBQS3JP.js";import{a as s,b as g,c as $,e as l}from"./chunk-EN66KAXS.js";var x=$((K,S)=>{S.exports=g("node:dns/promises")});var w=$((q,E)=>{E.exports=g("node:net")});var R=$((C,b)=>{b.exports=g("node:fs")});var H=l(x(),1),y=l(w(),1);var k=l(R(),1);var I=16,N="0A";function P(t,e){let r=new Set,c=new Map;for(let[n,p]of[[t,!1],[e,!0]])for(let a of n.split(`
`).slice(1)){let[,h,,F]=a.trim().split(/\s+/);if(F!==N||!h)continue;let[d,L]=h.split(":"),f=Number.parseInt(L??"",16),u=d&&(p?D(d):T(d));!f||u===void 0||(u==="0.0.0.0"?r.add(f):u.startsWith("127.")||c.set(`${u}:${f}`,{ip:u,port:f}))}let o=[...[...r].map(n=>({port:n})),...[...c.values()].filter(n=>!r.has(n.port))].sort((n,p)=>n.port-p.port),i=o.slice(0,I);return{any:i.filter(n=>!("ip"in n)).map(n=>n.port),at:i.filter(n=>"ip"in n),unasked:o.length-i.length}}s(P,"parseListeners");function _(){let t=s(e=>{try{return(0,k.readFileSync)(e,"utf8")}catch{return""}},"read");return P(t("/proc/self/net/tcp"),t("/proc/self/net/tcp6"))}s(_,"hostListeners");function T(t){if(!/^[0-9A-Fa-f]{8}$/.test(t))return;let e=t.match(/../g).map(r=>Number.parseInt(r,16));return`${e[3]}.${e[2]}.${e[1]}.${e[0]}`}s(T,"ipv4");function D(t){if(/^[0-9A-Fa-f]{32}$/.test(t)){if(/^0{32}$/.test(t))return"0.0.0.0";if(/^0{16}FFFF0000$/i.test(t.slice(0,24)))return T(t.slice(24))}}s(D,"ipv4Of6");var G=2375,v=3,O=2048,Y=`${m}
reach_ask() {
  r=$(printf 'GET /_ping HTTP/1.0\\r\\nHost: %s\\r\\nConnection: close\\r\\n\\r\\n.' "$1")
  echo "E $1 $2 $(xchg "$DA_ASK" "$1" "$2" "\${r%.}" | head -c ${O} | od -An -tx1 -v | tr -d ' \\n')"
}
gw=$(awk 'NR > 1 && $2 == "00000000" { h = $3; print substr(h, 7, 2), substr(h, 5, 2), substr(h, 3, 2), substr(h, 1, 2); exit }' /proc/net/route 2>/dev/null) || gw=""
case $gw in
"" | *[!0-9a-fA-F\\ ]*) gw="" ;;
*) IFS=' '; set -- $gw; IFS='
'; gw=$(printf '%d.%d.%d.%d' "0x$1" "0x$2" "0x$3" "0x$4") || gw="" ;;
esac
echo "G \${gw:--}"
for t in $DA_TARGETS; do [ -n "$t" ] && reach_ask "\${t%% *}" "\${t#* }"; done
if [ -n "$gw" ]; then for port in $DA_PORTS; do reach_ask "$gw" "$port"; done; fi
`.replaceAll("\\${","${");async function z(t,e=_()){let r=t.networkApi?.(),c=[...new Set([G,...r?[r.port]:[],...e.any])],o=r?.host.replace(/^\[|\]$/g,""),n=[...(o?(0,y.isIP)(o)?[o]:(await(0,H.lookup)(o,{all:!0,family:4})).map(a=>a.address):[]).slice(0,4).map(a=>({ip:a,port:r.port})),...e.at],p=new Set;return{targets:n.filter(a=>!p.has(`${a.ip}:${a.port}`)&&p.add(`${a.ip}:${a.port}`)),ports:c,...e.unasked?{unasked:e.unasked}:{}}}s(z,"reachTargets");function J(t){return{DA_ASK:String(v),DA_TARGETS:t.targets.map(e=>`${e.ip} ${e.port}`).join(`
`),DA_PORTS:t.ports.join(`
`)}}s(J,"reachEnv");function Q(t){return(t.targets.length+t.ports.length)*(v+1)*1e3}s(Q,"reachDeadlineMs");function j(t){let e=t.replace(/\r/g,"").split(/\n\n/)[0].split(`
`);return/^HTTP\/1\.[01] \d+/i.test(e[0]??"")?e.some(r=>/^(libpod-)?api-version:/i.test(r))?"engine":"http":"none"}s(j,"answerKind");function U(t){let e=t.find(o=>o.startsWith("G "));if(e===void 0)return;let r=e.slice(2).trim(),c=[];for(let o of t){let i=/^E (\S+) (\d+) ([0-9a-f]*)$/.exec(o);if(!i||i[3].length%2)continue;let{connected:n,answer:p}=A(Buffer.from(i[3],"hex").toString("latin1"));c.push({address:`${i[1]}:${i[2]}`,answer:n?j(p):"none"})}return{...r&&r!=="-"?{gateway:r}:{},asked:c}}s(U,"parseReach");export{O as a,Y as b,z as c,J as d,Q as e,j as f,U as g};
