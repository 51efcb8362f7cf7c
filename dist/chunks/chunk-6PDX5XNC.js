import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as x,c as w,d as v,e as S,j as k}from"./chunk-GBITKIGE.js";import{d as g,e as m}from"./chunk-SSUPTWGY.js";import{a as A}from"./chunk-4WRP27PS.js";import{a as L}from"./chunk-BFLJ2BVZ.js";import{a as U,g as l}from"./chunk-OLMWY2TB.js";import{a,e as O}from"./chunk-EN66KAXS.js";function P(e,n,t=0){let s=S.cases;return s.map(({id:r,grade:o})=>{let c=performance.now(),i;try{i=o(e,n)}catch(d){i={status:"error",message:`grader failed: ${d.message}`,evidence:{}}}return i.status==="skip"&&"error"in e.probe&&e.probe.unverified&&(i={...i,status:"error"}),{id:r,suite:"containment",subject:n.subject,status:i.status,severity:"fail",durationMs:Math.round((t/s.length+performance.now()-c)*100)/100,message:i.message,evidence:i.evidence,...i.status==="pass"?{}:{remediation:k(r,"inventory")}}})}a(P,"gradeContainment");var E=O(U(),1);var h=O(L(),1);function C(e){return`report() {
${e}
}
out=$(report)
printf '%s
' "$out"
printf 'Z %s %s
' "$(printf '%s
' "$out" | wc -c)" "$(printf '%s
' "$out" | sha256sum | cut -d' ' -f1)"
`}a(C,"framed");var B=C(String.raw`
set -u
# Processes in this pid namespace whose cgroup is neither the subject's (that of its process $1)
# nor this probe's: another container (or the host) shares the subject's pid namespace. One
# "O <count> <container id|->" line per cgroup owner; nothing when the engine gives no cgroups apart.
foreign_processes() {
  own=$(cat "/proc/$1/cgroup" 2>/dev/null) || return 0
  self=$(cat /proc/self/cgroup 2>/dev/null)
  for d in /proc/[0-9]*; do
    cg=$(cat "$d/cgroup" 2>/dev/null) || continue
    [ "$cg" = "$own" ] || [ "$cg" = "$self" ] && continue
    # The subject's own, in another of its cgroups (an exec'd process on the way in): not foreign.
    case "$cg" in *"$DA_ID"*) continue ;; esac
    id=$(printf '%s\n' "$cg" | grep -o '[0-9a-f]\{64\}' | head -n 1)
    [ -n "$id" ] || id=-
    echo "$id"
  done | sort | uniq -c | while read -r n id; do echo "O $n $id"; done
}
echo "V 1"
first=""
done_=""
members=$(cd /proc && for p in [0-9]*; do
  pp=$(sed -n 's/^PPid:[[:space:]]*//p' "$p/status" 2>/dev/null) && echo "$p $pp"
done | awk -v self=$$ -v root="$DA_ROOT" -v match_="$DA_MATCH" '
  { parent[$1] = $2 }
  END {
    for (p in parent) {
      q = p; hit = ""
      for (n = 0; n < 256 && q != "" && q != 0; n++) {
        if (q == self) { hit = "self"; break }
        if (match_ == "tree" && q == root) { hit = "root"; break }
        q = parent[q]
      }
      if (hit == "root" || (match_ != "tree" && hit != "self")) print p
    }
  }' | sort -n)
for pid in $members; do
  d=/proc/$pid
  if [ "$DA_MATCH" = cgroup ]; then
    cg=$(cat "$d/cgroup" 2>/dev/null) || continue
    case "$cg" in *"$DA_ID"*) ;; *) continue ;; esac
  fi
  [ -r "$d/status" ] || continue
  echo "P $pid"
  grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' "$d/status" 2>/dev/null | sed 's/^/S /'
  for n in pid net ipc uts mnt cgroup user; do
    t=$(readlink "$d/ns/$n" 2>/dev/null) && echo "N $n $t" || echo "U ns"
  done
  a=$(cat "$d/attr/current" 2>/dev/null) && echo "A $a"
  ifs=$(sed -n 's/^ *\([^:]*\):.*/\1/p' "$d/net/dev" 2>/dev/null | tr '\n' ' ') && echo "D $ifs"
  [ -n "$first" ] || [ "$DA_MODE" = ids ] && continue
  if mi=$(cat "$d/mountinfo" 2>/dev/null) && [ -n "$mi" ]; then
    first=$pid
    printf '%s\n' "$mi" | sed 's/^/M /'
  else
    echo "U mountinfo"
  fi
done
# ids mode (a subject whose user is a name): the status lines say which uid:gid to probe as.
[ -z "$first" ] || [ "$DA_MODE" = ids ] && return 0
foreign_processes "$first"
r=/proc/$first/root
if ls "$r/" >/dev/null 2>&1; then echo "R 1"; else echo "R 0"; return 0; fi
for p in $DA_EXISTS; do
  if [ -e "$r$p" ]; then echo "X 1 $p"; else echo "X 0 $p"; fi
done
# Mount points that are sockets: a host socket bound in is judged by what it is, not its name.
awk '{ print $5 }' "/proc/$first/mountinfo" | while read -r mp; do
  [ -S "$r$mp" ] && echo "K $mp"
done
# Bounded write probes: the writable mounts (minus kernel pseudo-filesystems), the root, and the
# allotted roots. One small file each, removed straight after.
targets=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { print $5, $6, $(i + 1); break } }' "/proc/$first/mountinfo" |
  while read -r mp opts fs; do
    case "$fs" in proc|sysfs|cgroup|cgroup2|devpts|mqueue|securityfs|debugfs|tracefs|bpf|pstore) continue ;; esac
    case ",$opts," in *,rw,*) echo "$mp" ;; esac
  done)
for p in / $targets $DA_ROOTS; do
  case " $done_ " in *" $p "*) continue ;; esac
  done_="$done_ $p"
  [ -d "$r$p" ] || { echo "W missing $p"; continue; }
  f="$r$p/.da-probe-$DA_NONCE"
  [ "$p" = / ] && f="$r/.da-probe-$DA_NONCE"
  if (echo x >"$f") 2>/dev/null; then
    if rm -f "$f" 2>/dev/null; then echo "W accepted-cleaned $p"; else echo "W accepted $p"; fi
  else
    echo "W refused $p"
  fi
done
`),W=C(`
echo "V 1"
for n in pid net ipc uts cgroup; do t=$(readlink /proc/self/ns/$n 2>/dev/null) && echo "N $n $t"; done
`),q=C(String.raw`
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
`);function N(e,n,t){return g(e,n,{name:"da-census",text:q},{user:_,env:{DA_IDS:t.join(" ")},namespaces:{pid:"host",net:"none"}})}a(N,"censusOptions");function I(e){let n=b(e,65534,65534).processes,t=new Map,s="";for(let o of e.split(`
`))o.startsWith("C ")?s=o.slice(2).trim():o.startsWith("P ")&&s&&t.set(Number(o.slice(2)),s);let r=new Map;for(let o of n){let c=t.get(o.pid);c&&r.set(c,[...r.get(c)??[],o])}return r}a(I,"parseCensusOutput");var _="65534:65534";function y(e,n,t){return g(e,n,{name:"da-probe",text:B},{user:`${t.uid}:${t.gid}`,env:{DA_ID:t.subjectId,DA_MATCH:t.match.by,DA_ROOT:t.match.by==="tree"?String(t.match.rootPid):"",DA_MODE:t.mode??"full",DA_NONCE:(0,h.randomBytes)(6).toString("hex"),DA_ROOTS:t.writableRoots.join(" "),DA_EXISTS:t.existsPaths.join(" ")},namespaces:{pid:`container:${t.subjectId}`,net:"none"},caps:t.caps})}a(y,"probeOptions");function R(e,n){return g(e,n,{name:"da-host-probe",text:W},{user:_,namespaces:{pid:"host",net:"host",ipc:"host",uts:"host",cgroup:"host"}})}a(R,"hostProbeOptions");var f=class extends Error{static{a(this,"ProbeParseError")}name="ProbeParseError"};function D(e){let n=e.endsWith(`
`)?e.slice(0,-1):e,t=n.lastIndexOf(`
`)+1,s=/^Z\s+(\d+)\s+([0-9a-f]{64})$/.exec(n.slice(t).trim());if(!s)throw new f("probe report is truncated or not a report (no 'Z <length> <sha256>' trailer)");let r=Buffer.from(n.slice(0,t),"utf8"),[o,c]=[Number(s[1]),s[2]];if(r.length!==o)throw new f(`probe report does not verify: ${r.length} bytes received, ${o} sent`);if((0,h.createHash)("sha256").update(r).digest("hex")!==c)throw new f("probe report does not verify: its SHA-256 differs from the one the probe sent");let i=r.toString("utf8").split(`
`).slice(0,-1);if(i[0]!=="V 1")throw new f("probe report does not start with 'V 1'");return i}a(D,"verifiedLines");function b(e,n,t){let s=D(e),r={processes:[],mountinfo:[],writes:[],exists:{},rootReadable:!1,uid:n,gid:t},o;for(let c of s){let i=c.slice(0,1),d=c.slice(2);switch(i){case"P":o={pid:Number(d),status:{},ns:{},unreadable:[]},r.processes.push(o);break;case"S":{let u=d.indexOf(":");o&&u>0&&(o.status[d.slice(0,u)]=d.slice(u+1).trim());break}case"N":{let[u,p]=d.split(" ");o&&u&&p&&(o.ns[u]=p);break}case"U":o&&!o.unreadable.includes(d)&&o.unreadable.push(d);break;case"A":o&&(o.lsm=d.replace(/\0/g,"").trim());break;case"D":o&&(o.interfaces=d.trim().split(/\s+/).filter(Boolean));break;case"M":r.mountinfo.push(d);break;case"R":r.rootReadable=d.trim()==="1";break;case"K":r.sockets=[...r.sockets??[],d];break;case"O":{let[u,p]=d.trim().split(/\s+/);r.foreign=[...r.foreign??[],{count:Number(u),...p&&p!=="-"?{container:p}:{}}];break}case"X":{let[u,p]=[d.slice(0,1),d.slice(2)];r.exists[p]=u==="1";break}case"W":{let u=d.indexOf(" "),p=d.slice(0,u),$=d.slice(u+1);p==="accepted-cleaned"?r.writes.push({path:$,result:"accepted",cleaned:!0}):p==="accepted"?r.writes.push({path:$,result:"accepted",cleaned:!1}):(p==="refused"||p==="missing")&&r.writes.push({path:$,result:p});break}}}for(let c of r.processes)Object.keys(c.status).length===0&&c.unreadable.push("status");return r}a(b,"parseProbeOutput");function j(e){let n=D(e),t={},s={};for(let r of n){let[o,c,i]=r.split(" ");o==="N"&&c&&i&&(t[c]=i),o==="F"&&c&&i&&(s[c]=i)}return{ns:t,sources:s}}a(j,"parseHostOutput");var he="busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";async function G(e,n,t){let s=await e.listContainers({status:["running"]});return Promise.all(s.filter(r=>r.labels[A]!==n||r.labels["org.docker-acceptance.role"]!=="probe").map(async r=>{let o=r.networkMode??await e.inspect(r.id,t).then(c=>c.modes.net,()=>{});return{id:r.id,name:(r.names[0]??r.id.slice(0,12)).replace(/^\//,""),modes:o?{net:o}:{}}}))}a(G,"listOtherContainers");async function V(e,n,t){return Promise.all(n.map(async s=>{let r=await e.inspect(s.id,t).catch(()=>{});return r?{...s,modes:{...s.modes,pid:r.modes.pid,ipc:r.modes.ipc}}:s}))}a(V,"withInspectedModes");async function be(e,n,t,s,r){let o=await m(e,N(n,t,s),r);return I(o.stdout)}a(be,"takeCensus");async function F(e,n,t,s){let r=await m(e,R(n,t),s),{ns:o,sources:c}=j(r.stdout),i=await X(o);return i?{ns:{...o,mnt:i},sources:{...c,mnt:"docker-acceptance"}}:{ns:o,sources:c}}a(F,"measureHostNamespaces");async function X(e){try{for(let n of["pid","net","ipc","uts"])if(!e[n]||await(0,E.readlink)(`/proc/self/ns/${n}`)!==e[n])return;return await(0,E.readlink)("/proc/self/ns/mnt")}catch{return}}a(X,"ownMountNamespace");var $e={role:"observes",start({engine:e,owner:n,probeImage:t,signal:s}){let r=F(e,n,t,s);return r.catch(()=>{}),o=>({suite:"containment",observe:a((c,i)=>Z({containerId:c,subject:o.name,writableRoots:o.writableRoots,allowedCapabilities:o.capabilities,allowedHostPaths:o.allowedHostPaths,network:o.network,inspect:i},{engine:e,owner:n,probeImage:t,host:r,signal:s}),"observe")})}};async function Z(e,n){let t=performance.now(),s=await K(e,n);return P(s,e,performance.now()-t)}a(Z,"runContainment");async function K(e,n){let t=n.host.then(i=>({ns:i.ns,...i.sources?{sources:i.sources}:{}}),i=>({error:l(i).message})),s,r=0;try{let i=e.inspect??await n.engine.inspect(e.containerId,n.signal);s=w(i),r=i.state.pid}catch(i){throw await t,i}let o=(n.others??G(n.engine,n.owner,n.signal)).then(async i=>{let d=i.filter(u=>u.id!==s.id);return s.modes.ipc==="shareable"?V(n.engine,d,n.signal):d},i=>({error:l(i).message})),c=s.running?await J(s,r,e,n).catch(i=>({error:l(i).message,...i instanceof f?{unverified:!0}:{}})):{error:"the container is not running"};return{inspect:s,probe:c,host:await t,others:await o}}a(K,"collectEvidence");function we(e){let n=new Map;for(let t of e){let s="error"in t.probe?void 0:t.probe.processes.find(r=>Object.keys(r.ns).length);s&&n.set(t.inspect.id,s.ns)}return e.map(t=>{if(!Array.isArray(t.others))return t;let s=t.others.map(r=>{let o=n.get(r.id);return o?{...r,ns:o}:r});return{...t,others:s}})}a(we,"withPeerNamespaces");function z(e,n){return e==="host"?{by:"tree",rootPid:n}:e.startsWith("container:")?{by:"cgroup"}:{by:"ns"}}a(z,"matchFor");async function J(e,n,t,s){let r={subjectId:e.id,match:z(e.modes.pid,n),writableRoots:t.writableRoots,existsPaths:[...new Set([...e.defaults.maskedPaths,...e.maskedPaths??[],...e.defaults.readonlyPaths,...e.readonlyPaths??[]])]},o=Q(e);if(o){let u=await M(r,o,s).catch(()=>{});if(u&&!("error"in u)&&u.processes.length>0){let p=H(u.processes,e);return p&&Y(p,o)?u:T(u.processes,e,r,s)}}let i=(await s.census?.().catch(()=>{}))?.get(e.id),d=i?.length?i:b((await m(s.engine,y(s.owner,s.probeImage,{...r,caps:[],uid:65534,gid:65534,mode:"ids"}),s.signal)).stdout,65534,65534).processes;return T(d,e,r,s)}a(J,"probeSubject");async function T(e,n,t,s){if(e.length===0)return{error:"no subject process visible to the probe"};let r=H(e,n);return r?M(t,r,s):{error:`could not resolve user ${JSON.stringify(n.user)} to a uid:gid (no subject process visible)`}}a(T,"probeAsMeasured");async function M(e,n,t){let s=await m(t.engine,y(t.owner,t.probeImage,{...e,...n}),t.signal);try{return b(s.stdout,n.uid,n.gid)}catch(r){let o=s.stderr.trim().slice(0,300);return{error:`${r.message} (exit ${s.exitCode}${o?`: ${o}`:""})`,...r instanceof f?{unverified:!0}:{}}}}a(M,"fullProbe");function H(e,n){let t=[...new Set(e.flatMap(r=>x(r.status.CapPrm??"")))],s=ee(e)??v(n.user);if(!(!s||s.gid===void 0))return{uid:s.uid,gid:s.gid,caps:t}}a(H,"credentialsOf");function Q(e){let n=v(e.user);if(!n||n.gid===void 0||e.privileged)return;let t=e.capDrop.some(s=>/^(CAP_)?ALL$/i.test(s.trim()));if(!(n.uid===0&&!(t&&e.capAdd.length===0)))return{uid:n.uid,gid:n.gid,caps:[]}}a(Q,"credentialsFromInspect");function Y(e,n){let t=a(s=>[...s.caps].sort().join(","),"caps");return e.uid===n.uid&&e.gid===n.gid&&t(e)===t(n)}a(Y,"sameCredentials");function ee(e){let n=new Map;for(let o of e){let c=Number(o.status.Uid?.split(/\s+/)[1]),i=Number(o.status.Gid?.split(/\s+/)[1]);if(!Number.isInteger(c)||!Number.isInteger(i))continue;let d=`${c}:${i}`;n.set(d,(n.get(d)??0)+1)}let t;for(let[o,c]of n)(t===void 0||c>n.get(t))&&(t=o);if(t===void 0)return;let[s,r]=t.split(":").map(Number);return{uid:s,gid:r}}a(ee,"commonIds");export{P as a,he as b,G as c,be as d,F as e,$e as f,K as g,we as h};
