import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as ie,b,d as C,e as w,f as $,g as S,h as A,i as D,n as j}from"./chunk-TLNDVCT6.js";import{g as I,i as m,j as f,k as N}from"./chunk-FCDWDKNG.js";import{a as T}from"./chunk-4WRP27PS.js";import{a as re}from"./chunk-BFLJ2BVZ.js";import{f as h}from"./chunk-DBHAS5X3.js";import{a as se}from"./chunk-NS2G42GP.js";import{a,b as te,c as ne,e as g}from"./chunk-EN66KAXS.js";var B=ne((qe,H)=>{H.exports=te("node:dns/promises")});function x(t,e,n=0){let r=D.cases;return r.map(({id:s,grade:i})=>{let o=performance.now(),d;try{d=i(t,e)}catch(c){d={status:"error",message:`grader failed: ${c.message}`,evidence:{}}}return d.status==="skip"&&"error"in t.probe&&t.probe.unverified&&(d={...d,status:"error"}),d=ae(s,d,t),{id:s,suite:"containment",subject:e.subject,status:d.status,severity:"fail",durationMs:Math.round((n/r.length+performance.now()-o)*100)/100,message:d.message,evidence:d.evidence,...d.status==="pass"?{}:{remediation:j(s,"inventory")}}})}a(x,"gradeContainment");var oe=new Set(["containment.writable_roots"]);function ae(t,e,n){let r=n.thawError?{thawError:n.thawError}:{};return e.status==="pass"&&oe.has(t)&&n.freeze&&!n.freeze.held?{status:"error",message:`${e.message}; but ${n.freeze.reason}, so the subject could watch the write probes and race them: not a pass`,evidence:{...e.evidence,freeze:n.freeze,...r}}:n.thawError?{...e,evidence:{...e.evidence,...r}}:e}a(ae,"distrusted");var _=g(se(),1);function ce(t){if(t.privileged)return[...C];let e=t.capDrop.map($),n=t.capAdd.map($);if(n.includes("ALL"))return[...C];let r=e.includes("ALL")?[]:t.defaults.capabilities.map($).filter(s=>!e.includes(s));return[...new Set([...r,...n])]}a(ce,"grantedCapabilities");function M(t){return I(ce(t))}a(M,"capabilityBound");function G(t){let e=A(t.user);if(!(!e||e.gid===void 0))return{uid:e.uid,gid:e.gid,caps:M(t)}}a(G,"launchCredentials");function y(t,e){let n=de(t)??A(e.user);if(!n||n.gid===void 0)return;let r=new Set(M(e)),s=new Set(t.flatMap(i=>w(i.status.CapPrm??"")));return{uid:n.uid,gid:n.gid,caps:[...s].filter(i=>r.has(i))}}a(y,"measuredCredentials");function L(t,e){let n=a(r=>[...r.caps].sort().join(","),"caps");return t.uid===e.uid&&t.gid===e.gid&&n(t)===n(e)}a(L,"sameCredentials");function de(t){let e=new Map;for(let i of t){let o=Number(i.status.Uid?.split(/\s+/)[1]),d=Number(i.status.Gid?.split(/\s+/)[1]);if(!Number.isInteger(o)||!Number.isInteger(d))continue;let c=`${o}:${d}`;e.set(c,(e.get(c)??0)+1)}let n;for(let[i,o]of e)(n===void 0||o>e.get(n))&&(n=i);if(n===void 0)return;let[r,s]=n.split(":").map(Number);return{uid:r,gid:s}}a(de,"commonIds");var q=g(B(),1),U=g(ie(),1);var pe=2375,W=3,ue=String.raw`
set -u
gw=$(awk 'NR > 1 && $2 == "00000000" { h = $3; print substr(h, 7, 2), substr(h, 5, 2), substr(h, 3, 2), substr(h, 1, 2); exit }' /proc/net/route 2>/dev/null)
[ -n "$gw" ] && set -- $gw && gw=$(printf '%d.%d.%d.%d' "0x$1" "0x$2" "0x$3" "0x$4")
echo "@@gateway $gw"
ask() {
  echo "@@ask $1 $2"
  # Busybox nc ends at its input's end, answered or not: the input stays open while the answer
  # comes, a blank line every 0.1 s (ignored between requests), until a write finds nc gone.
  { printf 'GET /_ping HTTP/1.0\r\nHost: %s\r\nConnection: close\r\n\r\n' "$1"
    i=0; while [ $i -lt $((DA_ASK * 10)) ] && sleep 0.1 && printf '\r\n'; do i=$((i + 1)); done; } 2>/dev/null |
    timeout "$DA_ASK" nc -w "$DA_ASK" "$1" "$2" 2>/dev/null | head -c 4096 | tr -d '\r' |
    grep -i -E '^(HTTP/1\.[01] [0-9]+|(libpod-)?api-version:)' | tr 'A-Z' 'a-z' | head -n 4
  echo "@@end"
}
echo "$DA_TARGETS" | while read -r ip port; do [ -n "$ip" ] && ask "$ip" "$port"; done
if [ -n "$gw" ]; then for port in $DA_PORTS; do ask "$gw" "$port"; done; fi
`;async function le(t){let e=t.networkApi?.(),n=[...new Set([pe,...e?[e.port]:[]])];if(!e)return{targets:[],ports:n};let r=e.host.replace(/^\[|\]$/g,"");return{targets:((0,U.isIP)(r)?[r]:(await(0,q.lookup)(r,{all:!0,family:4})).map(i=>i.address)).slice(0,4).map(i=>({ip:i,port:e.port})),ports:n}}a(le,"reachTargets");async function V(t,e,n,r,s){let{targets:i,ports:o}=await le(t),d=m(e,n,{name:"da-engine-reach",text:ue},{user:"65534:65534",env:{DA_TARGETS:i.map(u=>`${u.ip} ${u.port}`).join(`
`),DA_PORTS:o.join(" "),DA_ASK:String(W)},namespaces:{net:`container:${r}`}}),c=i.length+o.length,p=await f(t,d,s,c*(W+1)*1e3+15e3);return fe(p.stdout)}a(V,"measureEngineReach");function fe(t){let e=/^@@gateway (\S+)$/m.exec(t)?.[1],n=[];for(let r of t.matchAll(/^@@ask (\S+) (\d+)\n([\s\S]*?)^@@end$/gm)){let s=r[3].split(`
`).filter(Boolean),i=s.some(o=>/^(libpod-)?api-version:/.test(o))?"engine":s.some(o=>o.startsWith("http/"))?"http":"none";n.push({address:`${r[1]}:${r[2]}`,answer:i})}return{...e&&e!=="none"?{gateway:e}:{},asked:n}}a(fe,"parseReach");var v=g(re(),1);function R(t){return`report() {
${t}
}
out=$(report) || { echo "probe: the report did not complete (exit $?)" >&2; exit 3; }
printf '%s
' "$out"
printf 'Z %s %s
' "$(printf '%s
' "$out" | wc -c)" "$(printf '%s
' "$out" | sha256sum | cut -d' ' -f1)"
`}a(R,"framed");function me(t,...e){return String.raw(t,...e).replaceAll("\\${","${")}a(me,"sh");var he=String.raw`
  function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
  BEGIN {
    for (i = 1; i < ARGC; i++) {
      f = ARGV[i]; p = f; sub(/^\/proc\//, "", p); sub(/\/status$/, "", p)
      while ((getline l < f) > 0) {
        if (l ~ /^PPid:/) { sub(/^PPid:[ \t]*/, "", l); parent[p] = l }
        else if (l ~ /^NSpid:/) { n = split(l, a, /[ \t]+/); inner[p] = a[n] }
      }
      close(f)
    }
    for (p in parent) {
      hit = 0; k = 0
      for (q = p; !hit && q != "" && q != 0 && k++ < 4096; q = parent[q]) if (q == root) hit = 1
      if (!hit && id != "" && index(slurp("/proc/" p "/cgroup"), id) > 0) hit = 1
      if (hit) print p, inner[p]
    }
    exit
  }`,ge=String.raw`
  function started(f,   l) { l = ""; getline l < f; close(f); sub(/^.*\) /, "", l); split(l, x, " "); return x[20] }
  BEGIN {
    while ((getline l < ("/proc/" w "/status")) > 0) if (l ~ /^NSpid:/) { n = split(l, a, /[ \t]+/); inner = a[n] }
    t = started("/proc/" w "/stat")
    exit !(t != "" && inner != "" && started(v "/" inner "/stat") == t)
  }`,be=String.raw`
  function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
  BEGIN {
    for (i = 1; i < ARGC; i++) {
      p = ARGV[i]; sub(/\/status$/, "", p)
      while ((getline l < ARGV[i]) > 0) if (l ~ /^PPid:/) { sub(/^PPid:[ \t]*/, "", l); parent[p] = l; break }
      close(ARGV[i])
      for (j = n++; j > 0 && pids[j - 1] + 0 > p + 0; j--) pids[j] = pids[j - 1]
      pids[j] = p
    }
    m = ""; all = ""
    for (j = 0; j < n; j++) {
      p = pids[j]; all = all " " p; hit = match_ == "ns"; k = 0
      if (match_ == "tree") for (q = p; !hit && q != "" && q != 0 && k++ < 4096; q = parent[q]) if (q == root) hit = 1
      if (match_ == "cgroup") hit = index(slurp(p "/cgroup"), id) > 0
      if (hit) m = m " " p
    }
    print "m" m
    print "a" all
    exit
  }`,we=String.raw`
  function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
  function unesc(s,   o) { o = ""; while (match(s, /\\[0-7][0-7][0-7]/)) { o = o substr(s, 1, RSTART - 1) sprintf("%c", (substr(s, RSTART + 1, 1) * 64) + (substr(s, RSTART + 2, 1) * 8) + substr(s, RSTART + 3, 1)); s = substr(s, RSTART + 4) } return o s }
  function esc(s,   o, c, i) { o = ""; for (i = 1; i <= length(s); i++) { c = substr(s, i, 1); o = o (c == " " ? "\\040" : c == "\t" ? "\\011" : c == "\n" ? "\\012" : c == "\\" ? "\\134" : c) } return o }
  function task(kind, dec) {
    if (kind == "w" && seen[dec]++) return
    if (index(dec, "\n")) { if (kind == "s") print "K " esc(dec); if (kind == "w") print "W failed " esc(dec); return }
    print kind " " esc(dec) " " dec
  }
  function mounts(d,   l, n, f, i) {
    n = 0
    while ((getline l < (d "/mountinfo")) > 0) {
      print "M " l; n++
      split(l, f, " "); mp[n] = unesc(f[5])
      for (i = 7; f[i] != "" && f[i] != "-"; i++) ;
      if (f[i + 1] !~ /^(proc|sysfs|cgroup|cgroup2|devpts|mqueue|securityfs|debugfs|tracefs|bpf|pstore)$/ && ("," f[6] ",") ~ /,rw,/) rw[n] = 1
    }
    close(d "/mountinfo")
    return n
  }
  BEGIN {
    while ((getline l < "/proc/self/status") > 0) if (l ~ /^CapPrm:/) { sub(/^CapPrm:[ \t]*/, "", l); print "I " l }
    close("/proc/self/status")
    lines = split(ENVIRON["DA_NSL"], ls, "\n")
    for (i = 1; i <= lines; i++) {
      l = ls[i]
      if (l ~ /\/ns\/?:$/) { cur = l; sub(/\/ns\/?:$/, "", cur); sub(/^.*\//, "", cur) }
      else if (match(l, / [a-z_]+ -> [a-z_]+:\[[0-9]+\]$/)) { split(substr(l, RSTART + 1), x, " "); ns[cur, x[1]] = x[3] }
    }
    split(members, pid, " ")
    for (i = 1; pid[i] != ""; i++) {
      d = v "/" pid[i]
      print "P " pid[i]
      split("pid net ipc uts mnt cgroup user", names, " ")
      for (j = 1; j <= 7; j++) if ((pid[i], names[j]) in ns) print "N " names[j] " " ns[pid[i], names[j]]; else print "U ns"
      if ((getline l < (d "/attr/current")) > 0) print "A " l
      close(d "/attr/current")
      while ((getline l < (d "/status")) > 0)
        if (l ~ /^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/) print "S " l
      close(d "/status")
      ifs = ""; readable = 0
      while ((getline l < (d "/net/dev")) > 0) { readable = 1; if (l ~ /:/) { sub(/:.*/, "", l); sub(/^ */, "", l); ifs = ifs l " " } }
      close(d "/net/dev")
      if (readable) print "D " ifs
      if (first == "" && mode != "ids") { n = mounts(d); if (n > 0) first = pid[i]; else print "U mountinfo" }
    }
    if (first == "") exit
    own = slurp(v "/" first "/cgroup")
    split(everyone, all, " ")
    for (i = 1; all[i] != "" && own != ""; i++) {
      cg = slurp(v "/" all[i] "/cgroup")
      if (cg == "" || cg == own || index(cg, id) > 0) continue
      o = match(cg, /[0-9a-f]{64}/) ? substr(cg, RSTART, RLENGTH) : "-"
      other[o]++
    }
    for (o in other) print "O " other[o] " " o
    print "r " first
    split(ENVIRON["DA_EXISTS"], x, "\n")
    for (i = 1; x[i] != ""; i++) task("x", x[i])
    for (i = 1; i <= n; i++) task("s", mp[i])
    task("w", "/")
    for (i = 1; i <= n; i++) if (rw[i]) task("w", mp[i])
    split(ENVIRON["DA_ROOTS"], x, "\n")
    for (i = 1; x[i] != ""; i++) task("w", x[i])
    exit
  }`,$e=R(me`
set -fu
IFS='
'
echo "V 1"
# The status of the processes the host shows as the subject's (world-readable): all an ids probe
# reads, and all a full one can when its credentials open none of them (namespaces, mounts unread).
statuses() {
  for line in $hosted; do
    echo "P \${line#* }"
    [ "$DA_MODE" = ids ] || echo "U ns"
    awk '/^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/ { print "S " $0 }' "/proc/\${line%% *}/status" 2>/dev/null
  done
}
hosted=""
in=""
if [ "$DA_MODE" = full ] && [ -d "/proc/$DA_ROOT/root/proc" ]; then
  in=$DA_ROOT
else
  hosted=$(set +f; awk -v root="$DA_ROOT" -v id="$DA_ID" '${he}' /proc/[0-9]*/status) || exit 3
  [ "$DA_MODE" = ids ] && { statuses; return 0; }
  for line in $hosted; do
    [ -d "/proc/\${line%% *}/root/proc" ] && { in=\${line%% *}; break; }
  done
fi
[ -n "$in" ] || { statuses; return 0; }
v=/proc/$in/root/proc
awk -v w="$in" -v v="$v" '${ge}' || { echo "U view"; return 0; }
listed=$(set +f; cd "$v" && awk -v root="$DA_ROOT" -v id="$DA_ID" -v match_="$DA_MATCH" '${be}' [0-9]*/status) || exit 3
members="" everyone=""
for line in $listed; do
  case $line in m*) members=\${line#m} ;; a*) everyone=\${line#a} ;; esac
done
set --
IFS=' '
for p in $members; do set -- "$@" "$v/$p/ns/"; done
IFS='
'
[ $# = 1 ] && set -- "$1" "$1"
DA_NSL=""
[ $# = 0 ] || DA_NSL=$(ls -l "$@" 2>/dev/null) || :
read_=$(DA_NSL=$DA_NSL awk -v v="$v" -v members="$members" -v everyone="$everyone" -v id="$DA_ID" -v mode="$DA_MODE" '${we}') || exit 3
r=""
for line in $read_; do
  kind=\${line%% *}
  rest=\${line#* }
  printed=\${rest%% *}
  path=\${rest#* }
  case $kind in
  r) r=$v/$rest/root; if [ -d "$r/" ]; then echo "R 1"; else echo "R 0"; r=""; fi ;;
  x) [ -n "$r" ] || continue; if [ -e "$r$path" ]; then echo "X 1 $printed"; else echo "X 0 $printed"; fi ;;
  s) [ -n "$r" ] && [ -S "$r$path" ] && echo "K $printed" ;;
  w) [ -n "$r" ] || continue
    [ -d "$r$path" ] || { echo "W missing $printed"; continue; }
    f="$r$path/.da-probe-$DA_NONCE"
    if e=$( { : >"$f"; } 2>&1 ); then
      if rm -f "$f" 2>/dev/null; then echo "W accepted-cleaned $printed"; else echo "W accepted $printed"; fi
    else
      case $e in
      *"Read-only file system"* | *"Permission denied"* | *"Operation not permitted"*) echo "W refused $printed" ;;
      *"No space left"* | *"quota exceeded"*) echo "W full $printed" ;;
      *) echo "W failed $printed" ;;
      esac
    fi ;;
  *) echo "$line" ;;
  esac
done
`),ve=R(`
echo "V 1"
for n in pid net ipc uts cgroup; do t=$(readlink /proc/self/ns/$n 2>/dev/null) && echo "N $n $t"; done
`),Ee=R(String.raw`
echo "V 1"
cd /proc || return 0
for p in [0-9]*; do
  cg=""
  { while IFS= read -r l; do cg="$cg$l "; done < "$p/cgroup"; } 2>/dev/null || continue
  for id in $DA_IDS; do
    case "$cg" in *"$id"*)
      echo "C $id"
      echo "P $p"
      grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' "$p/status" 2>/dev/null | sed 's/^/S /'
      break ;;
    esac
  done
done
`);function F(t,e,n){return m(t,e,{name:"da-census",text:Ee},{user:X,env:{DA_IDS:n.join(" ")},namespaces:{pid:"host",net:"none"}})}a(F,"censusOptions");function K(t){let e=E(t,65534,65534).processes,n=new Map,r="";for(let i of t.split(`
`))i.startsWith("C ")?r=i.slice(2).trim():i.startsWith("P ")&&r&&n.set(Number(i.slice(2)),r);let s=new Map;for(let i of e){let o=n.get(i.pid);o&&s.set(o,[...s.get(o)??[],i])}return s}a(K,"parseCensusOutput");var X="65534:65534";function z(t){return t.filter(e=>!/[\x00-\x1f\x7f]/.test(e)).join(`
`)}a(z,"pathList");function O(t,e,n){return m(t,e,{name:"da-probe",text:$e},{user:`${n.uid}:${n.gid}`,env:{DA_ID:n.subjectId,DA_MATCH:n.match,DA_ROOT:String(n.rootPid),DA_MODE:n.mode??"full",DA_NONCE:(0,v.randomBytes)(6).toString("hex"),DA_ROOTS:z(n.writableRoots),DA_EXISTS:z(n.existsPaths)},namespaces:{pid:"host",net:"none"},caps:n.caps})}a(O,"probeOptions");function Z(t,e){return m(t,e,{name:"da-host-probe",text:ve},{user:X,namespaces:{pid:"host",net:"host",ipc:"host",uts:"host",cgroup:"host"}})}a(Z,"hostProbeOptions");var l=class extends Error{static{a(this,"ProbeParseError")}name="ProbeParseError"};function J(t){let e=t.endsWith(`
`)?t.slice(0,-1):t,n=e.lastIndexOf(`
`)+1,r=/^Z\s+(\d+)\s+([0-9a-f]{64})$/.exec(e.slice(n).trim());if(!r)throw new l("probe report is truncated or not a report (no 'Z <length> <sha256>' trailer)");let s=Buffer.from(e.slice(0,n),"utf8"),[i,o]=[Number(r[1]),r[2]];if(s.length!==i)throw new l(`probe report does not verify: ${s.length} bytes received, ${i} sent`);if((0,v.createHash)("sha256").update(s).digest("hex")!==o)throw new l("probe report does not verify: its SHA-256 differs from the one the probe sent");let d=s.toString("utf8").split(`
`).slice(0,-1);if(d[0]!=="V 1")throw new l("probe report does not start with 'V 1'");return d}a(J,"verifiedLines");function E(t,e,n){let r=J(t),s={processes:[],mountinfo:[],writes:[],exists:{},rootReadable:!1,uid:e,gid:n},i;for(let o of r){let d=o.slice(0,1),c=o.slice(2);switch(d){case"P":i={pid:Number(c),status:{},ns:{},unreadable:[]},s.processes.push(i);break;case"S":{let p=c.indexOf(":");i&&p>0&&(i.status[c.slice(0,p)]=c.slice(p+1).trim());break}case"N":{let[p,u]=c.split(" ");i&&p&&u&&(i.ns[p]=u);break}case"U":i?i.unreadable.includes(c)||i.unreadable.push(c):Ce(c);break;case"A":i&&(i.lsm=c.replace(/\0/g,"").trim());break;case"D":i&&(i.interfaces=c.trim().split(/\s+/).filter(Boolean));break;case"M":s.mountinfo.push(c);break;case"R":s.rootReadable=c.trim()==="1";break;case"I":s.held=w(c.trim());break;case"K":s.sockets=[...s.sockets??[],b(c)];break;case"O":{let[p,u]=c.trim().split(/\s+/);s.foreign=[...s.foreign??[],{count:Number(p),...u&&u!=="-"?{container:u}:{}}];break}case"X":{let[p,u]=[c.slice(0,1),b(c.slice(2))];s.exists[u]=p==="1";break}case"W":{let p=Pe(c);p&&s.writes.push(p);break}}}for(let o of s.processes)Object.keys(o.status).length===0&&o.unreadable.push("status");return s}a(E,"parseProbeOutput");function Pe(t){let e=t.indexOf(" "),n=t.slice(0,e),r=b(t.slice(e+1));if(n==="accepted-cleaned")return{path:r,result:"accepted",cleaned:!0};if(n==="accepted")return{path:r,result:"accepted",cleaned:!1};if(n==="full")return{path:r,result:"accepted",cleaned:!0,full:!0};if(n==="refused"||n==="missing"||n==="failed")return{path:r,result:n}}a(Pe,"writeRecord");function Ce(t){throw t==="view"?new l("the subject's /proc is not the kernel's view of its PID namespace (another procfs is mounted there): nothing read through it is evidence"):new l(`the probe's report says ${JSON.stringify(`U ${t}`)} before any process`)}a(Ce,"unreached");function Q(t){let e=J(t),n={},r={};for(let s of e){let[i,o,d]=s.split(" ");i==="N"&&o&&d&&(n[o]=d),i==="F"&&o&&d&&(r[o]=d)}return{ns:n,sources:r}}a(Q,"parseHostOutput");var at="busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";async function Se(t,e,n){let r=await t.listContainers({status:["running","paused"]});return Promise.all(r.filter(s=>s.labels[T]!==e||s.labels["org.docker-acceptance.role"]!=="probe").map(async s=>{let i=s.networkMode??await t.inspect(s.id,n).then(o=>o.modes.net,()=>{});return{id:s.id,name:(s.names[0]??s.id.slice(0,12)).replace(/^\//,""),modes:i?{net:i}:{}}}))}a(Se,"listOtherContainers");async function Ae(t,e,n){return Promise.all(e.map(async r=>{let s=await t.inspect(r.id,n).catch(()=>{});return s?{...r,modes:{...r.modes,pid:s.modes.pid,ipc:s.modes.ipc}}:r}))}a(Ae,"withInspectedModes");async function ct(t,e,n,r,s){let i=await f(t,F(e,n,r),s);return K(i.stdout)}a(ct,"takeCensus");async function xe(t,e,n,r){let s=await f(t,Z(e,n),r),{ns:i,sources:o}=Q(s.stdout),d=await ye(i);return d?{ns:{...i,mnt:d},sources:{...o,mnt:"docker-acceptance"}}:{ns:i,sources:o}}a(xe,"measureHostNamespaces");async function ye(t){try{for(let e of["pid","net","ipc","uts"])if(!t[e]||await(0,_.readlink)(`/proc/self/ns/${e}`)!==t[e])return;return await(0,_.readlink)("/proc/self/ns/mnt")}catch{return}}a(ye,"ownMountNamespace");var dt={role:"observes",start({engine:t,owner:e,probeImage:n,signal:r}){let s=xe(t,e,n,r);return s.catch(()=>{}),i=>({suite:"containment",observe:a(o=>Re({containerId:o,subject:i.name,writableRoots:i.writableRoots,allowedCapabilities:i.capabilities,allowedHostPaths:i.allowedHostPaths,network:i.network},{engine:t,owner:e,probeImage:n,host:s,signal:r}),"observe")})}};async function Re(t,e){let n=performance.now(),r=await Oe(t,e);return x(r,t,performance.now()-n)}a(Re,"runContainment");async function Oe(t,e){let n=e.host.then(c=>({ns:c.ns,...c.sources?{sources:c.sources}:{}}),c=>({error:h(c).message})),r;try{r=await N(e.engine,t.containerId,c=>ke(t,e,c),e.signal)}catch(c){throw await n,c}let{inspect:s,probe:i,reach:o}=r.value,d=(e.others??Se(e.engine,e.owner,e.signal)).then(async c=>{let p=c.filter(u=>u.id!==s.id);return s.modes.ipc==="shareable"?Ae(e.engine,p,e.signal):p},c=>({error:h(c).message}));return{inspect:s,probe:i,...o?{reach:o}:{},freeze:r.freeze,...r.thawError?{thawError:r.thawError}:{},host:await n,others:await d}}a(Oe,"collectEvidence");async function ke(t,e,n){let r=await e.engine.inspect(t.containerId,e.signal),s=S(r);if(!s.running)return{inspect:s,probe:{error:"the container is not running"}};let i=s.modes.net==="none"?void 0:V(e.engine,e.owner,e.probeImage,s.id,e.signal).catch(d=>({error:h(d).message})),o=await Te(s,r.state.pid,t,e,n).catch(d=>({error:h(d).message,...d instanceof l?{unverified:!0}:{}}));return{inspect:s,probe:o,...i?{reach:await i}:{}}}a(ke,"observe");function pt(t){let e=new Map;for(let n of t){let r="error"in n.probe?void 0:n.probe.processes.find(s=>Object.keys(s.ns).length);r&&e.set(n.inspect.id,r.ns)}return t.map(n=>{if(!Array.isArray(n.others))return n;let r=n.others.map(s=>{let i=e.get(s.id);return i?{...s,ns:i}:s});return{...n,others:r}})}a(pt,"withPeerNamespaces");function _e(t){return t==="host"?"tree":t.startsWith("container:")?"cgroup":"ns"}a(_e,"matchFor");async function Te(t,e,n,r,s){let i={subjectId:t.id,rootPid:e,match:_e(t.modes.pid),writableRoots:n.writableRoots,existsPaths:[...new Set([...t.defaults.maskedPaths,...t.maskedPaths??[],...t.defaults.readonlyPaths,...t.readonlyPaths??[]])]},o=G(t);if(o&&s){let u=await k(i,o,r).catch(()=>{});if(u&&!("error"in u)&&u.processes.length>0){let P=y(u.processes,t),ee={uid:o.uid,gid:o.gid,caps:u.held??o.caps};return!P||L(P,ee)?u:k(i,P,r)}}let d=(await r.census?.().catch(()=>{}))?.get(t.id),c=d?.length?d:await Ie(i,r);if(c.length===0)return{error:"no subject process visible to the probe"};let p=y(c,t);return p?k(i,p,r):{error:`could not resolve user ${JSON.stringify(t.user)} to a uid:gid (no subject process visible)`}}a(Te,"probeSubject");async function Ie(t,e){let n=O(e.owner,e.probeImage,{...t,caps:[],uid:65534,gid:65534,mode:"ids"}),r=await f(e.engine,n,e.signal);return E(Y(r),65534,65534).processes}a(Ie,"idsProbe");function Y(t){if(t.exitCode!==0){let e=t.stderr.trim().slice(0,300);throw new l(`the probe did not complete (exit ${t.exitCode}${e?`: ${e}`:""})`)}return t.stdout}a(Y,"verifiedRun");async function k(t,e,n){let r=await f(n.engine,O(n.owner,n.probeImage,{...t,...e}),n.signal);try{return E(Y(r),e.uid,e.gid)}catch(s){let i=r.stderr.trim().slice(0,300),o=r.exitCode===0&&i?` (${i})`:"";return{error:`${s.message}${o}`,...s instanceof l?{unverified:!0}:{}}}}a(k,"fullProbe");export{x as a,at as b,Se as c,ct as d,xe as e,dt as f,Oe as g,pt as h};
