import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
import{b as x,c as $,d as P,e as S,j as k}from"./chunk-RMKSZMOX.js";import{d as g,e as l}from"./chunk-IDJ66FYC.js";import{a as A}from"./chunk-4WRP27PS.js";import{a as G}from"./chunk-BFLJ2BVZ.js";import{f as m}from"./chunk-MRE6PENT.js";import{a as L}from"./chunk-NS2G42GP.js";import{a as c,e as O}from"./chunk-EN66KAXS.js";function v(e,t,n=0){let s=S.cases;return s.map(({id:r,grade:i})=>{let a=performance.now(),o;try{o=i(e,t)}catch(d){o={status:"error",message:`grader failed: ${d.message}`,evidence:{}}}return o.status==="skip"&&"error"in e.probe&&e.probe.unverified&&(o={...o,status:"error"}),{id:r,suite:"containment",subject:t.subject,status:o.status,severity:"fail",durationMs:Math.round((n/s.length+performance.now()-a)*100)/100,message:o.message,evidence:o.evidence,...o.status==="pass"?{}:{remediation:k(r,"inventory")}}})}c(v,"gradeContainment");var E=O(L(),1);var h=O(G(),1);function C(e){return`report() {
${e}
}
out=$(report)
printf '%s
' "$out"
printf 'Z %s %s
' "$(printf '%s
' "$out" | wc -c)" "$(printf '%s
' "$out" | sha256sum | cut -d' ' -f1)"
`}c(C,"framed");var B=C(String.raw`
set -u
# Processes in this pid namespace whose cgroup is neither the subject's (that of its process $1)
# nor this probe's: another container (or the host) shares the subject's pid namespace. One
# "O <count> <container id|->" line per cgroup owner; nothing when the engine gives no cgroups apart.
foreign_processes() {
  awk -v own="/proc/$1/cgroup" -v subject="$DA_ID" '
    function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
    BEGIN {
      mine = slurp(own)
      if (mine == "") exit
      self = slurp("/proc/self/cgroup")
      for (i = 1; i < ARGC; i++) {
        cg = slurp(ARGV[i])
        # The subject own, in another of its cgroups (an exec-ed process on the way in): not foreign.
        if (cg == "" || cg == mine || cg == self || index(cg, subject) > 0) continue
        id = match(cg, /[0-9a-f]{64}/) ? substr(cg, RSTART, RLENGTH) : "-"
        n[id]++
      }
      for (id in n) print "O " n[id] " " id
      exit
    }' /proc/[0-9]*/cgroup
}
echo "V 1"
first=""
done_=""
members=$(cd /proc && awk -v self=$$ -v root="$DA_ROOT" -v match_="$DA_MATCH" '
  BEGIN {
    for (i = 1; i < ARGC; i++) {
      p = ARGV[i]
      sub(/\/status$/, "", p)
      while ((getline l < ARGV[i]) > 0) if (l ~ /^PPid:/) { sub(/^PPid:[ \t]*/, "", l); parent[p] = l; break }
      close(ARGV[i])
    }
    for (p in parent) {
      q = p; hit = ""
      for (n = 0; n < 256 && q != "" && q != 0; n++) {
        if (q == self) { hit = "self"; break }
        if (match_ == "tree" && q == root) { hit = "root"; break }
        q = parent[q]
      }
      if (hit == "root" || (match_ != "tree" && hit != "self")) print p
    }
    exit
  }' [0-9]*/status | sort -n)
for pid in $members; do
  d=/proc/$pid
  if [ "$DA_MATCH" = cgroup ]; then
    cg=$(cat "$d/cgroup" 2>/dev/null) || continue
    case "$cg" in *"$DA_ID"*) ;; *) continue ;; esac
  fi
  [ -r "$d/status" ] || continue
  echo "P $pid"
  for n in pid net ipc uts mnt cgroup user; do
    t=$(readlink "$d/ns/$n" 2>/dev/null) && echo "N $n $t" || echo "U ns"
  done
  a=$(cat "$d/attr/current" 2>/dev/null) && echo "A $a"
  # Its status lines, its interfaces (no D line when they cannot be read) and, for the first
  # readable process, the mount table, in one pass: true when the mount table was printed.
  if [ -n "$first" ] || [ "$DA_MODE" = ids ]; then m=0; else m=1; fi
  if awk -v d="$d" -v m="$m" '
    BEGIN {
      while ((getline l < (d "/status")) > 0)
        if (l ~ /^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/) print "S " l
      readable = 0
      ifs = ""
      while ((getline l < (d "/net/dev")) > 0) {
        readable = 1
        if (l ~ /:/) { sub(/:.*/, "", l); sub(/^ */, "", l); ifs = ifs l " " }
      }
      if (readable) print "D " ifs
      if (!m) exit 1
      n = 0
      while ((getline l < (d "/mountinfo")) > 0) { print "M " l; n++ }
      if (n == 0) print "U mountinfo"
      exit (n == 0)
    }'; then first=$pid; fi
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
`),U=C(`
echo "V 1"
for n in pid net ipc uts cgroup; do t=$(readlink /proc/self/ns/$n 2>/dev/null) && echo "N $n $t"; done
`),V=C(String.raw`
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
`);function R(e,t,n){return g(e,t,{name:"da-census",text:V},{user:N,env:{DA_IDS:n.join(" ")},namespaces:{pid:"host",net:"none"}})}c(R,"censusOptions");function I(e){let t=b(e,65534,65534).processes,n=new Map,s="";for(let i of e.split(`
`))i.startsWith("C ")?s=i.slice(2).trim():i.startsWith("P ")&&s&&n.set(Number(i.slice(2)),s);let r=new Map;for(let i of t){let a=n.get(i.pid);a&&r.set(a,[...r.get(a)??[],i])}return r}c(I,"parseCensusOutput");var N="65534:65534";function y(e,t,n){return g(e,t,{name:"da-probe",text:B},{user:`${n.uid}:${n.gid}`,env:{DA_ID:n.subjectId,DA_MATCH:n.match.by,DA_ROOT:n.match.by==="tree"?String(n.match.rootPid):"",DA_MODE:n.mode??"full",DA_NONCE:(0,h.randomBytes)(6).toString("hex"),DA_ROOTS:n.writableRoots.join(" "),DA_EXISTS:n.existsPaths.join(" ")},namespaces:{pid:`container:${n.subjectId}`,net:"none"},caps:n.caps})}c(y,"probeOptions");function _(e,t){return g(e,t,{name:"da-host-probe",text:U},{user:N,namespaces:{pid:"host",net:"host",ipc:"host",uts:"host",cgroup:"host"}})}c(_,"hostProbeOptions");var f=class extends Error{static{c(this,"ProbeParseError")}name="ProbeParseError"};function D(e){let t=e.endsWith(`
`)?e.slice(0,-1):e,n=t.lastIndexOf(`
`)+1,s=/^Z\s+(\d+)\s+([0-9a-f]{64})$/.exec(t.slice(n).trim());if(!s)throw new f("probe report is truncated or not a report (no 'Z <length> <sha256>' trailer)");let r=Buffer.from(t.slice(0,n),"utf8"),[i,a]=[Number(s[1]),s[2]];if(r.length!==i)throw new f(`probe report does not verify: ${r.length} bytes received, ${i} sent`);if((0,h.createHash)("sha256").update(r).digest("hex")!==a)throw new f("probe report does not verify: its SHA-256 differs from the one the probe sent");let o=r.toString("utf8").split(`
`).slice(0,-1);if(o[0]!=="V 1")throw new f("probe report does not start with 'V 1'");return o}c(D,"verifiedLines");function b(e,t,n){let s=D(e),r={processes:[],mountinfo:[],writes:[],exists:{},rootReadable:!1,uid:t,gid:n},i;for(let a of s){let o=a.slice(0,1),d=a.slice(2);switch(o){case"P":i={pid:Number(d),status:{},ns:{},unreadable:[]},r.processes.push(i);break;case"S":{let u=d.indexOf(":");i&&u>0&&(i.status[d.slice(0,u)]=d.slice(u+1).trim());break}case"N":{let[u,p]=d.split(" ");i&&u&&p&&(i.ns[u]=p);break}case"U":i&&!i.unreadable.includes(d)&&i.unreadable.push(d);break;case"A":i&&(i.lsm=d.replace(/\0/g,"").trim());break;case"D":i&&(i.interfaces=d.trim().split(/\s+/).filter(Boolean));break;case"M":r.mountinfo.push(d);break;case"R":r.rootReadable=d.trim()==="1";break;case"K":r.sockets=[...r.sockets??[],d];break;case"O":{let[u,p]=d.trim().split(/\s+/);r.foreign=[...r.foreign??[],{count:Number(u),...p&&p!=="-"?{container:p}:{}}];break}case"X":{let[u,p]=[d.slice(0,1),d.slice(2)];r.exists[p]=u==="1";break}case"W":{let u=d.indexOf(" "),p=d.slice(0,u),w=d.slice(u+1);p==="accepted-cleaned"?r.writes.push({path:w,result:"accepted",cleaned:!0}):p==="accepted"?r.writes.push({path:w,result:"accepted",cleaned:!1}):(p==="refused"||p==="missing")&&r.writes.push({path:w,result:p});break}}}for(let a of r.processes)Object.keys(a.status).length===0&&a.unreadable.push("status");return r}c(b,"parseProbeOutput");function j(e){let t=D(e),n={},s={};for(let r of t){let[i,a,o]=r.split(" ");i==="N"&&a&&o&&(n[a]=o),i==="F"&&a&&o&&(s[a]=o)}return{ns:n,sources:s}}c(j,"parseHostOutput");var he="busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";async function W(e,t,n){let s=await e.listContainers({status:["running"]});return Promise.all(s.filter(r=>r.labels[A]!==t||r.labels["org.docker-acceptance.role"]!=="probe").map(async r=>{let i=r.networkMode??await e.inspect(r.id,n).then(a=>a.modes.net,()=>{});return{id:r.id,name:(r.names[0]??r.id.slice(0,12)).replace(/^\//,""),modes:i?{net:i}:{}}}))}c(W,"listOtherContainers");async function q(e,t,n){return Promise.all(t.map(async s=>{let r=await e.inspect(s.id,n).catch(()=>{});return r?{...s,modes:{...s.modes,pid:r.modes.pid,ipc:r.modes.ipc}}:s}))}c(q,"withInspectedModes");async function be(e,t,n,s,r){let i=await l(e,R(t,n,s),r);return I(i.stdout)}c(be,"takeCensus");async function F(e,t,n,s){let r=await l(e,_(t,n),s),{ns:i,sources:a}=j(r.stdout),o=await X(i);return o?{ns:{...i,mnt:o},sources:{...a,mnt:"docker-acceptance"}}:{ns:i,sources:a}}c(F,"measureHostNamespaces");async function X(e){try{for(let t of["pid","net","ipc","uts"])if(!e[t]||await(0,E.readlink)(`/proc/self/ns/${t}`)!==e[t])return;return await(0,E.readlink)("/proc/self/ns/mnt")}catch{return}}c(X,"ownMountNamespace");var we={role:"observes",start({engine:e,owner:t,probeImage:n,signal:s}){let r=F(e,t,n,s);return r.catch(()=>{}),i=>({suite:"containment",observe:c((a,o)=>Z({containerId:a,subject:i.name,writableRoots:i.writableRoots,allowedCapabilities:i.capabilities,allowedHostPaths:i.allowedHostPaths,network:i.network,inspect:o},{engine:e,owner:t,probeImage:n,host:r,signal:s}),"observe")})}};async function Z(e,t){let n=performance.now(),s=await K(e,t);return v(s,e,performance.now()-n)}c(Z,"runContainment");async function K(e,t){let n=t.host.then(o=>({ns:o.ns,...o.sources?{sources:o.sources}:{}}),o=>({error:m(o).message})),s,r=0;try{let o=e.inspect??await t.engine.inspect(e.containerId,t.signal);s=$(o),r=o.state.pid}catch(o){throw await n,o}let i=(t.others??W(t.engine,t.owner,t.signal)).then(async o=>{let d=o.filter(u=>u.id!==s.id);return s.modes.ipc==="shareable"?q(t.engine,d,t.signal):d},o=>({error:m(o).message})),a=s.running?await J(s,r,e,t).catch(o=>({error:m(o).message,...o instanceof f?{unverified:!0}:{}})):{error:"the container is not running"};return{inspect:s,probe:a,host:await n,others:await i}}c(K,"collectEvidence");function $e(e){let t=new Map;for(let n of e){let s="error"in n.probe?void 0:n.probe.processes.find(r=>Object.keys(r.ns).length);s&&t.set(n.inspect.id,s.ns)}return e.map(n=>{if(!Array.isArray(n.others))return n;let s=n.others.map(r=>{let i=t.get(r.id);return i?{...r,ns:i}:r});return{...n,others:s}})}c($e,"withPeerNamespaces");function z(e,t){return e==="host"?{by:"tree",rootPid:t}:e.startsWith("container:")?{by:"cgroup"}:{by:"ns"}}c(z,"matchFor");async function J(e,t,n,s){let r={subjectId:e.id,match:z(e.modes.pid,t),writableRoots:n.writableRoots,existsPaths:[...new Set([...e.defaults.maskedPaths,...e.maskedPaths??[],...e.defaults.readonlyPaths,...e.readonlyPaths??[]])]},i=Q(e);if(i){let u=await M(r,i,s).catch(()=>{});if(u&&!("error"in u)&&u.processes.length>0){let p=H(u.processes,e);return p&&Y(p,i)?u:T(u.processes,e,r,s)}}let o=(await s.census?.().catch(()=>{}))?.get(e.id),d=o?.length?o:b((await l(s.engine,y(s.owner,s.probeImage,{...r,caps:[],uid:65534,gid:65534,mode:"ids"}),s.signal)).stdout,65534,65534).processes;return T(d,e,r,s)}c(J,"probeSubject");async function T(e,t,n,s){if(e.length===0)return{error:"no subject process visible to the probe"};let r=H(e,t);return r?M(n,r,s):{error:`could not resolve user ${JSON.stringify(t.user)} to a uid:gid (no subject process visible)`}}c(T,"probeAsMeasured");async function M(e,t,n){let s=await l(n.engine,y(n.owner,n.probeImage,{...e,...t}),n.signal);try{return b(s.stdout,t.uid,t.gid)}catch(r){let i=s.stderr.trim().slice(0,300);return{error:`${r.message} (exit ${s.exitCode}${i?`: ${i}`:""})`,...r instanceof f?{unverified:!0}:{}}}}c(M,"fullProbe");function H(e,t){let n=[...new Set(e.flatMap(r=>x(r.status.CapPrm??"")))],s=ee(e)??P(t.user);if(!(!s||s.gid===void 0))return{uid:s.uid,gid:s.gid,caps:n}}c(H,"credentialsOf");function Q(e){let t=P(e.user);if(!t||t.gid===void 0||e.privileged)return;let n=e.capDrop.some(s=>/^(CAP_)?ALL$/i.test(s.trim()));if(!(t.uid===0&&!(n&&e.capAdd.length===0)))return{uid:t.uid,gid:t.gid,caps:[]}}c(Q,"credentialsFromInspect");function Y(e,t){let n=c(s=>[...s.caps].sort().join(","),"caps");return e.uid===t.uid&&e.gid===t.gid&&n(e)===n(t)}c(Y,"sameCredentials");function ee(e){let t=new Map;for(let i of e){let a=Number(i.status.Uid?.split(/\s+/)[1]),o=Number(i.status.Gid?.split(/\s+/)[1]);if(!Number.isInteger(a)||!Number.isInteger(o))continue;let d=`${a}:${o}`;t.set(d,(t.get(d)??0)+1)}let n;for(let[i,a]of t)(n===void 0||a>t.get(n))&&(n=i);if(n===void 0)return;let[s,r]=n.split(":").map(Number);return{uid:s,gid:r}}c(ee,"commonIds");export{v as a,he as b,W as c,be as d,F as e,we as f,K as g,$e as h};
