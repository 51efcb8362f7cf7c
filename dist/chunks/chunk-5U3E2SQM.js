import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{a as g,c as C,d as b,e as w,f as P,g as x,h as D,m as j}from"./chunk-JJOOIKPE.js";import{d as _,e as h,f,g as T}from"./chunk-USBNWE2C.js";import{a as I}from"./chunk-4WRP27PS.js";import{a as K}from"./chunk-BFLJ2BVZ.js";import{f as m}from"./chunk-DBHAS5X3.js";import{a as Z}from"./chunk-NS2G42GP.js";import{a as c,e as N}from"./chunk-EN66KAXS.js";function S(e,t,n=0){let r=D.cases;return r.map(({id:s,grade:i})=>{let a=performance.now(),o;try{o=i(e,t)}catch(d){o={status:"error",message:`grader failed: ${d.message}`,evidence:{}}}return o.status==="skip"&&"error"in e.probe&&e.probe.unverified&&(o={...o,status:"error"}),o=Q(s,o,e),{id:s,suite:"containment",subject:t.subject,status:o.status,severity:"fail",durationMs:Math.round((n/r.length+performance.now()-a)*100)/100,message:o.message,evidence:o.evidence,...o.status==="pass"?{}:{remediation:j(s,"inventory")}}})}c(S,"gradeContainment");var J=new Set(["containment.writable_roots"]);function Q(e,t,n){let r=n.thawError?{thawError:n.thawError}:{};return t.status==="pass"&&J.has(e)&&n.freeze&&!n.freeze.held?{status:"error",message:`${t.message}; but ${n.freeze.reason}, so the subject could watch the write probes and race them: not a pass`,evidence:{...t.evidence,freeze:n.freeze,...r}}:n.thawError?{...t,evidence:{...t.evidence,...r}}:t}c(Q,"distrusted");var k=N(Z(),1);function Y(e){if(e.privileged)return[...C];let t=e.capDrop.map(w),n=e.capAdd.map(w);if(n.includes("ALL"))return[...C];let r=t.includes("ALL")?[]:e.defaults.capabilities.map(w).filter(s=>!t.includes(s));return[...new Set([...r,...n])]}c(Y,"grantedCapabilities");function M(e){return _(Y(e))}c(M,"capabilityBound");function L(e){let t=x(e.user);if(!(!t||t.gid===void 0))return{uid:t.uid,gid:t.gid,caps:M(e)}}c(L,"launchCredentials");function y(e,t){let n=ee(e)??x(t.user);if(!n||n.gid===void 0)return;let r=new Set(M(t)),s=new Set(e.flatMap(i=>b(i.status.CapPrm??"")));return{uid:n.uid,gid:n.gid,caps:[...s].filter(i=>r.has(i))}}c(y,"measuredCredentials");function G(e,t){let n=c(r=>[...r.caps].sort().join(","),"caps");return e.uid===t.uid&&e.gid===t.gid&&n(e)===n(t)}c(G,"sameCredentials");function ee(e){let t=new Map;for(let i of e){let a=Number(i.status.Uid?.split(/\s+/)[1]),o=Number(i.status.Gid?.split(/\s+/)[1]);if(!Number.isInteger(a)||!Number.isInteger(o))continue;let d=`${a}:${o}`;t.set(d,(t.get(d)??0)+1)}let n;for(let[i,a]of t)(n===void 0||a>t.get(n))&&(n=i);if(n===void 0)return;let[r,s]=n.split(":").map(Number);return{uid:r,gid:s}}c(ee,"commonIds");var $=N(K(),1);function A(e){return`report() {
${e}
}
out=$(report) || { echo "probe: the report did not complete (exit $?)" >&2; exit 3; }
printf '%s
' "$out"
printf 'Z %s %s
' "$(printf '%s
' "$out" | wc -c)" "$(printf '%s
' "$out" | sha256sum | cut -d' ' -f1)"
`}c(A,"framed");function te(e,...t){return String.raw(e,...t).replaceAll("\\${","${")}c(te,"sh");var ne=String.raw`
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
  }`,re=String.raw`
  function started(f,   l) { l = ""; getline l < f; close(f); sub(/^.*\) /, "", l); split(l, x, " "); return x[20] }
  BEGIN {
    while ((getline l < ("/proc/" w "/status")) > 0) if (l ~ /^NSpid:/) { n = split(l, a, /[ \t]+/); inner = a[n] }
    t = started("/proc/" w "/stat")
    exit !(t != "" && inner != "" && started(v "/" inner "/stat") == t)
  }`,se=String.raw`
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
  }`,ie=String.raw`
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
  }`,oe=A(te`
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
  hosted=$(set +f; awk -v root="$DA_ROOT" -v id="$DA_ID" '${ne}' /proc/[0-9]*/status) || exit 3
  [ "$DA_MODE" = ids ] && { statuses; return 0; }
  for line in $hosted; do
    [ -d "/proc/\${line%% *}/root/proc" ] && { in=\${line%% *}; break; }
  done
fi
[ -n "$in" ] || { statuses; return 0; }
v=/proc/$in/root/proc
awk -v w="$in" -v v="$v" '${re}' || { echo "U view"; return 0; }
listed=$(set +f; cd "$v" && awk -v root="$DA_ROOT" -v id="$DA_ID" -v match_="$DA_MATCH" '${se}' [0-9]*/status) || exit 3
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
read_=$(DA_NSL=$DA_NSL awk -v v="$v" -v members="$members" -v everyone="$everyone" -v id="$DA_ID" -v mode="$DA_MODE" '${ie}') || exit 3
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
`),ae=A(`
echo "V 1"
for n in pid net ipc uts cgroup; do t=$(readlink /proc/self/ns/$n 2>/dev/null) && echo "N $n $t"; done
`),ce=A(String.raw`
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
`);function B(e,t,n){return h(e,t,{name:"da-census",text:ce},{user:U,env:{DA_IDS:n.join(" ")},namespaces:{pid:"host",net:"none"}})}c(B,"censusOptions");function W(e){let t=v(e,65534,65534).processes,n=new Map,r="";for(let i of e.split(`
`))i.startsWith("C ")?r=i.slice(2).trim():i.startsWith("P ")&&r&&n.set(Number(i.slice(2)),r);let s=new Map;for(let i of t){let a=n.get(i.pid);a&&s.set(a,[...s.get(a)??[],i])}return s}c(W,"parseCensusOutput");var U="65534:65534";function H(e){return e.filter(t=>!/[\x00-\x1f\x7f]/.test(t)).join(`
`)}c(H,"pathList");function O(e,t,n){return h(e,t,{name:"da-probe",text:oe},{user:`${n.uid}:${n.gid}`,env:{DA_ID:n.subjectId,DA_MATCH:n.match,DA_ROOT:String(n.rootPid),DA_MODE:n.mode??"full",DA_NONCE:(0,$.randomBytes)(6).toString("hex"),DA_ROOTS:H(n.writableRoots),DA_EXISTS:H(n.existsPaths)},namespaces:{pid:"host",net:"none"},caps:n.caps})}c(O,"probeOptions");function q(e,t){return h(e,t,{name:"da-host-probe",text:ae},{user:U,namespaces:{pid:"host",net:"host",ipc:"host",uts:"host",cgroup:"host"}})}c(q,"hostProbeOptions");var l=class extends Error{static{c(this,"ProbeParseError")}name="ProbeParseError"};function V(e){let t=e.endsWith(`
`)?e.slice(0,-1):e,n=t.lastIndexOf(`
`)+1,r=/^Z\s+(\d+)\s+([0-9a-f]{64})$/.exec(t.slice(n).trim());if(!r)throw new l("probe report is truncated or not a report (no 'Z <length> <sha256>' trailer)");let s=Buffer.from(t.slice(0,n),"utf8"),[i,a]=[Number(r[1]),r[2]];if(s.length!==i)throw new l(`probe report does not verify: ${s.length} bytes received, ${i} sent`);if((0,$.createHash)("sha256").update(s).digest("hex")!==a)throw new l("probe report does not verify: its SHA-256 differs from the one the probe sent");let o=s.toString("utf8").split(`
`).slice(0,-1);if(o[0]!=="V 1")throw new l("probe report does not start with 'V 1'");return o}c(V,"verifiedLines");function v(e,t,n){let r=V(e),s={processes:[],mountinfo:[],writes:[],exists:{},rootReadable:!1,uid:t,gid:n},i;for(let a of r){let o=a.slice(0,1),d=a.slice(2);switch(o){case"P":i={pid:Number(d),status:{},ns:{},unreadable:[]},s.processes.push(i);break;case"S":{let u=d.indexOf(":");i&&u>0&&(i.status[d.slice(0,u)]=d.slice(u+1).trim());break}case"N":{let[u,p]=d.split(" ");i&&u&&p&&(i.ns[u]=p);break}case"U":i?i.unreadable.includes(d)||i.unreadable.push(d):ue(d);break;case"A":i&&(i.lsm=d.replace(/\0/g,"").trim());break;case"D":i&&(i.interfaces=d.trim().split(/\s+/).filter(Boolean));break;case"M":s.mountinfo.push(d);break;case"R":s.rootReadable=d.trim()==="1";break;case"I":s.held=b(d.trim());break;case"K":s.sockets=[...s.sockets??[],g(d)];break;case"O":{let[u,p]=d.trim().split(/\s+/);s.foreign=[...s.foreign??[],{count:Number(u),...p&&p!=="-"?{container:p}:{}}];break}case"X":{let[u,p]=[d.slice(0,1),g(d.slice(2))];s.exists[p]=u==="1";break}case"W":{let u=de(d);u&&s.writes.push(u);break}}}for(let a of s.processes)Object.keys(a.status).length===0&&a.unreadable.push("status");return s}c(v,"parseProbeOutput");function de(e){let t=e.indexOf(" "),n=e.slice(0,t),r=g(e.slice(t+1));if(n==="accepted-cleaned")return{path:r,result:"accepted",cleaned:!0};if(n==="accepted")return{path:r,result:"accepted",cleaned:!1};if(n==="full")return{path:r,result:"accepted",cleaned:!0,full:!0};if(n==="refused"||n==="missing"||n==="failed")return{path:r,result:n}}c(de,"writeRecord");function ue(e){throw e==="view"?new l("the subject's /proc is not the kernel's view of its PID namespace (another procfs is mounted there): nothing read through it is evidence"):new l(`the probe's report says ${JSON.stringify(`U ${e}`)} before any process`)}c(ue,"unreached");function z(e){let t=V(e),n={},r={};for(let s of t){let[i,a,o]=s.split(" ");i==="N"&&a&&o&&(n[a]=o),i==="F"&&a&&o&&(r[a]=o)}return{ns:n,sources:r}}c(z,"parseHostOutput");var Ue="busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";async function pe(e,t,n){let r=await e.listContainers({status:["running","paused"]});return Promise.all(r.filter(s=>s.labels[I]!==t||s.labels["org.docker-acceptance.role"]!=="probe").map(async s=>{let i=s.networkMode??await e.inspect(s.id,n).then(a=>a.modes.net,()=>{});return{id:s.id,name:(s.names[0]??s.id.slice(0,12)).replace(/^\//,""),modes:i?{net:i}:{}}}))}c(pe,"listOtherContainers");async function le(e,t,n){return Promise.all(t.map(async r=>{let s=await e.inspect(r.id,n).catch(()=>{});return s?{...r,modes:{...r.modes,pid:s.modes.pid,ipc:s.modes.ipc}}:r}))}c(le,"withInspectedModes");async function qe(e,t,n,r,s){let i=await f(e,B(t,n,r),s);return W(i.stdout)}c(qe,"takeCensus");async function fe(e,t,n,r){let s=await f(e,q(t,n),r),{ns:i,sources:a}=z(s.stdout),o=await me(i);return o?{ns:{...i,mnt:o},sources:{...a,mnt:"docker-acceptance"}}:{ns:i,sources:a}}c(fe,"measureHostNamespaces");async function me(e){try{for(let t of["pid","net","ipc","uts"])if(!e[t]||await(0,k.readlink)(`/proc/self/ns/${t}`)!==e[t])return;return await(0,k.readlink)("/proc/self/ns/mnt")}catch{return}}c(me,"ownMountNamespace");var Ve={role:"observes",start({engine:e,owner:t,probeImage:n,signal:r}){let s=fe(e,t,n,r);return s.catch(()=>{}),i=>({suite:"containment",observe:c(a=>he({containerId:a,subject:i.name,writableRoots:i.writableRoots,allowedCapabilities:i.capabilities,allowedHostPaths:i.allowedHostPaths,network:i.network},{engine:e,owner:t,probeImage:n,host:s,signal:r}),"observe")})}};async function he(e,t){let n=performance.now(),r=await ge(e,t);return S(r,e,performance.now()-n)}c(he,"runContainment");async function ge(e,t){let n=t.host.then(o=>({ns:o.ns,...o.sources?{sources:o.sources}:{}}),o=>({error:m(o).message})),r;try{r=await T(t.engine,e.containerId,o=>be(e,t,o),t.signal)}catch(o){throw await n,o}let{inspect:s,probe:i}=r.value,a=(t.others??pe(t.engine,t.owner,t.signal)).then(async o=>{let d=o.filter(u=>u.id!==s.id);return s.modes.ipc==="shareable"?le(t.engine,d,t.signal):d},o=>({error:m(o).message}));return{inspect:s,probe:i,freeze:r.freeze,...r.thawError?{thawError:r.thawError}:{},host:await n,others:await a}}c(ge,"collectEvidence");async function be(e,t,n){let r=await t.engine.inspect(e.containerId,t.signal),s=P(r);if(!s.running)return{inspect:s,probe:{error:"the container is not running"}};let i=await $e(s,r.state.pid,e,t,n).catch(a=>({error:m(a).message,...a instanceof l?{unverified:!0}:{}}));return{inspect:s,probe:i}}c(be,"observe");function ze(e){let t=new Map;for(let n of e){let r="error"in n.probe?void 0:n.probe.processes.find(s=>Object.keys(s.ns).length);r&&t.set(n.inspect.id,r.ns)}return e.map(n=>{if(!Array.isArray(n.others))return n;let r=n.others.map(s=>{let i=t.get(s.id);return i?{...s,ns:i}:s});return{...n,others:r}})}c(ze,"withPeerNamespaces");function we(e){return e==="host"?"tree":e.startsWith("container:")?"cgroup":"ns"}c(we,"matchFor");async function $e(e,t,n,r,s){let i={subjectId:e.id,rootPid:t,match:we(e.modes.pid),writableRoots:n.writableRoots,existsPaths:[...new Set([...e.defaults.maskedPaths,...e.maskedPaths??[],...e.defaults.readonlyPaths,...e.readonlyPaths??[]])]},a=L(e);if(a&&s){let p=await R(i,a,r).catch(()=>{});if(p&&!("error"in p)&&p.processes.length>0){let E=y(p.processes,e),X={uid:a.uid,gid:a.gid,caps:p.held??a.caps};return!E||G(E,X)?p:R(i,E,r)}}let o=(await r.census?.().catch(()=>{}))?.get(e.id),d=o?.length?o:await ve(i,r);if(d.length===0)return{error:"no subject process visible to the probe"};let u=y(d,e);return u?R(i,u,r):{error:`could not resolve user ${JSON.stringify(e.user)} to a uid:gid (no subject process visible)`}}c($e,"probeSubject");async function ve(e,t){let n=O(t.owner,t.probeImage,{...e,caps:[],uid:65534,gid:65534,mode:"ids"}),r=await f(t.engine,n,t.signal);return v(F(r),65534,65534).processes}c(ve,"idsProbe");function F(e){if(e.exitCode!==0){let t=e.stderr.trim().slice(0,300);throw new l(`the probe did not complete (exit ${e.exitCode}${t?`: ${t}`:""})`)}return e.stdout}c(F,"verifiedRun");async function R(e,t,n){let r=await f(n.engine,O(n.owner,n.probeImage,{...e,...t}),n.signal);try{return v(F(r),t.uid,t.gid)}catch(s){let i=r.stderr.trim().slice(0,300),a=r.exitCode===0&&i?` (${i})`:"";return{error:`${s.message}${a}`,...s instanceof l?{unverified:!0}:{}}}}c(R,"fullProbe");export{S as a,Ue as b,pe as c,qe as d,fe as e,Ve as f,ge as g,ze as h};
