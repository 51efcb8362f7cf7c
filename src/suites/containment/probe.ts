// The trusted probes: a POSIX sh script run by busybox in a pinned image (never the subject's),
// and the parser for its line report. Evidence only; no judgement here.

import { createHash, randomBytes } from "node:crypto";
import type { ProbeSpec } from "../../engine/provider.js";
import { trustedProbe } from "../../engine/trusted-probe.js";
import { parseReach, REACH_SH, type ReachAsks, reachDeadlineMs, reachEnv } from "./engine-reach.js";
import { decodeCaps, type ProbeEvidence, type ProcessEvidence, type WriteProbe } from "./evidence.js";
import { unescapeOctal } from "./mounts.js";

/**
 * The report's frame: the body's output, then one trailer line `Z <bytes> <sha256>` over exactly
 * the lines before it. An engine's log path may drop, split or merge lines (one engine merges
 * a split line into the one before); a report whose length or digest does not match is not evidence.
 * The body runs whole or not at all: when any step of it fails (a reader killed, out of memory)
 * the probe prints nothing, exits non-zero, and the report is not evidence either.
 */
function framed(body: string): string {
  return `report() {
${body}
}
out=$(report) || { echo "probe: the report did not complete (exit $?)" >&2; exit 3; }
printf '%s\n' "$out"
printf 'Z %s %s\n' "$(printf '%s\n' "$out" | wc -c)" "$(printf '%s\n' "$out" | sha256sum | cut -d' ' -f1)"
`;
}

/**
 * Whether `stdout` is a whole framed report: its last line a trailer that verifies. Asked as the
 * report arrives (ProbeSpec.complete), so the cheap test of the last line comes first.
 */
export function frameComplete(stdout: string): boolean {
  if (!/(?:^|\n)Z \d+ [0-9a-f]{64}\n$/.test(stdout.slice(-120))) return false;
  try {
    verifiedLines(stdout);
    return true;
  } catch {
    return false;
  }
}

/** String.raw, except that `\${` stands for the shell's `${` (a template cannot hold it as written). */
function sh(text: TemplateStringsArray, ...parts: string[]): string {
  return String.raw(text, ...parts).replaceAll("\\${", "${");
}

// The subject probe's awk programs, one per step (no single quote in any: each is quoted in the
// script as written). Files are read with getline, which fails only for that file (a process can
// exit while it is read), and one awk reads many files: 35 probes at once on 2 cores spent half
// their script time forking (measured: 32 ms of CPU per probe before, 14 ms after).

/**
 * The subject's tasks as the host sees them, without opening any of them (status and cgroup are
 * world-readable): every thread of `root` (its init) and of its descendants, and of processes whose
 * cgroup names `id` (the engine put them there: exec). ARGV: every task's status
 * (/proc/<pid>/task/<tid>/status), since the kernel keeps credentials per thread and a process's
 * own status is its leader's alone: a thread may hold what its leader dropped. A thread group is
 * the subject's when its leader is. One "<host tid> <tid in its namespace>" line each.
 */
const HOST_MEMBERS = String.raw`
  function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
  function ours(g,   q, k) {
    if (g in member) return member[g]
    k = 0
    for (q = g; q != "" && q != 0 && k++ < 4096; q = parent[q]) if (q == root) return member[g] = 1
    return member[g] = (id != "" && index(slurp("/proc/" g "/cgroup"), id) > 0)
  }
  BEGIN {
    for (i = 1; i < ARGC; i++) {
      f = ARGV[i]; p = f; sub(/\/status$/, "", p); sub(/^.*\//, "", p)
      while ((getline l < f) > 0) {
        if (l ~ /^PPid:/) { sub(/^PPid:[ \t]*/, "", l); parent[p] = l }
        else if (l ~ /^Tgid:/) { sub(/^Tgid:[ \t]*/, "", l); group[p] = l }
        else if (l ~ /^NSpid:/) { n = split(l, a, /[ \t]+/); inner[p] = a[n] }
      }
      close(f)
    }
    for (p in parent) if (ours(p in group ? group[p] : p)) print p, inner[p]
    exit
  }`;

/**
 * Whether the subject's procfs (`v`: /proc/<way in>/root/proc) is the kernel's view of the way-in
 * process's PID namespace: the entry it has under that process's pid there (the last NSpid field)
 * is the same process (the same start time) as the host's /proc/<way in>. A procfs of another
 * namespace mounted in its place fails, and nothing of it is read.
 */
const SAME_VIEW = String.raw`
  function started(f,   l) { l = ""; getline l < f; close(f); sub(/^.*\) /, "", l); split(l, x, " "); return x[20] }
  BEGIN {
    while ((getline l < ("/proc/" w "/status")) > 0) if (l ~ /^NSpid:/) { n = split(l, a, /[ \t]+/); inner = a[n] }
    t = started("/proc/" w "/stat")
    exit !(t != "" && inner != "" && started(v "/" inner "/stat") == t)
  }`;

/**
 * The subject's tasks in its procfs (ARGV: its <pid>/task/<tid>/status files, run in it; every
 * thread, as for HOST_MEMBERS): every one for a PID namespace of its own (`match_` ns), the threads
 * of `root` and its descendants in the host's (tree), those whose leader's cgroup names `id` in
 * another container's (cgroup). "m <tids>" (ascending), then "a <pids>" (every process there, by
 * its leader, for the processes of other containers).
 */
const VIEW_MEMBERS = String.raw`
  function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
  function ours(g,   q, k) {
    if (match_ == "ns") return 1
    if (g in member) return member[g]
    k = 0
    if (match_ == "tree") for (q = g; q != "" && q != 0 && k++ < 4096; q = parent[q]) if (q == root) return member[g] = 1
    return member[g] = (match_ == "cgroup" && index(slurp(g "/cgroup"), id) > 0)
  }
  # A heap sort (a[1..n], by number): the subject sets how many tasks there are, and an insertion
  # sort of the order the glob gives (1, 10, 100, 11, ...) took 10 s for 4,000.
  function sift(a, i, n,   c, t) {
    while ((c = 2 * i) <= n) {
      if (c < n && a[c + 1] + 0 > a[c] + 0) c++
      if (a[i] + 0 >= a[c] + 0) return
      t = a[i]; a[i] = a[c]; a[c] = t; i = c
    }
  }
  function heapsort(a, n,   i, t) {
    for (i = int(n / 2); i >= 1; i--) sift(a, i, n)
    for (i = n; i > 1; i--) { t = a[1]; a[1] = a[i]; a[i] = t; sift(a, 1, i - 1) }
  }
  BEGIN {
    for (i = 1; i < ARGC; i++) {
      p = ARGV[i]; sub(/\/status$/, "", p); sub(/^.*\//, "", p)
      while ((getline l < ARGV[i]) > 0) {
        # Tgid comes before PPid in the status of every kernel.
        if (l ~ /^PPid:/) { sub(/^PPid:[ \t]*/, "", l); parent[p] = l; break }
        else if (l ~ /^Tgid:/) { sub(/^Tgid:[ \t]*/, "", l); group[p] = l }
      }
      close(ARGV[i])
      pids[++n] = p
    }
    heapsort(pids, n)
    m = ""; all = ""
    for (j = 1; j <= n; j++) {
      p = pids[j]; g = p in group ? group[p] : p
      if (g == p) all = all " " p
      if (ours(g)) m = m " " p
    }
    print "m" m
    print "a" all
    exit
  }`;

/**
 * The probe's own permitted set (I: what it held), then every member's records (P, its status
 * lines S, namespaces N from `ls -l` of their ns links on its input, LSM label A, interfaces
 * D; U for what could not be read), then, from the first
 * member whose mount table can be read, the table (M), processes of other containers (O) and the
 * tests only the shell can make, as lower-case tasks: "r" (is its root open), then "x", "s" and
 * "w" with a path twice, as printed (the kernel's octal escapes: no space, tab, newline or
 * backslash) and as it is on disk. A path a task line cannot carry (a newline in it) is reported
 * at once: a mount point as a possible socket (K), a write target as not probed (W failed).
 */
const READ_MEMBERS = String.raw`
  function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
  function unesc(s,   o) { o = ""; while (match(s, /\\[0-7][0-7][0-7]/)) { o = o substr(s, 1, RSTART - 1) sprintf("%c", (substr(s, RSTART + 1, 1) * 64) + (substr(s, RSTART + 2, 1) * 8) + substr(s, RSTART + 3, 1)); s = substr(s, RSTART + 4) } return o s }
  function esc(s,   o, c, i) { o = ""; for (i = 1; i <= length(s); i++) { c = substr(s, i, 1); o = o (c == " " ? "\\040" : c == "\t" ? "\\011" : c == "\n" ? "\\012" : c == "\\" ? "\\134" : c) } return o }
  function task(kind, dec) {
    if ((kind == "w" || kind == "d") && seen[dec]++) return
    if (index(dec, "\n")) { if (kind == "s") print "K " esc(dec); if (kind ~ /^[wd]$/) print "W failed " esc(dec); return }
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
    while ((getline l) > 0) {
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
        if (l ~ /^(Tgid|Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/) print "S " l
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
    for (i = 1; x[i] != ""; i++) task("d", x[i])
    exit
  }`;

// The subject probe. It runs in the host's PID namespace, where no process of a subject with a
// PID namespace of its own can see it (nothing of it to name, signal, trace or open), and reads
// the subject through the subject's own procfs: /proc/<way in>/root/proc, the way in being the
// subject's init (DA_ROOT, read while the subject is frozen) or, when this probe's credentials
// cannot open that, the first of its descendants they can. Parameters come in the environment,
// never interpolated; lists (DA_ROOTS, DA_EXISTS) one path a line. Nothing is word-split on a
// space or expanded as a pattern (set -f): a path is used as it is on disk and printed as the
// kernel prints mount points. DA_MODE=ids (a user given by name) reads only the status of the
// processes the host shows as the subject's, to learn which uid:gid to probe as.
export const PROBE_SCRIPT = framed(sh`
set -fu
IFS='
'
echo "V 1"
# The engine-reach asks (DA_ASK set: this probe is in the subject's network namespace), first, so
# every way out of the reading below still has them: ./engine-reach.ts.
[ -z "\${DA_ASK:-}" ] || {
${REACH_SH}
}
# The status of the tasks the host shows as the subject's (world-readable): all an ids probe reads,
# and all a full one can when its credentials open none of them (namespaces, mounts unread). Each
# is named by its ids in the subject's namespace (the last of NSpid, NStgid), as the view names it.
statuses() {
  for line in $hosted; do
    echo "P \${line#* }"
    [ "$DA_MODE" = ids ] || echo "U ns"
    awk '/^NStgid:/ { n = split($0, a, /[ \t]+/); print "S Tgid:\t" a[n] }
      /^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/ { print "S " $0 }' "/proc/\${line%% *}/status" 2>/dev/null
  done
}
hosted=""
in=""
if [ "$DA_MODE" = full ] && [ -d "/proc/$DA_ROOT/root/proc" ]; then
  in=$DA_ROOT
else
  hosted=$(set +f; awk -v root="$DA_ROOT" -v id="$DA_ID" '${HOST_MEMBERS}' /proc/[0-9]*/task/[0-9]*/status) || exit 3
  [ "$DA_MODE" = ids ] && { statuses; return 0; }
  for line in $hosted; do
    [ -d "/proc/\${line%% *}/root/proc" ] && { in=\${line%% *}; break; }
  done
fi
[ -n "$in" ] || { statuses; return 0; }
v=/proc/$in/root/proc
awk -v w="$in" -v v="$v" '${SAME_VIEW}' || { echo "U view"; return 0; }
listed=$(set +f; cd "$v" && awk -v root="$DA_ROOT" -v id="$DA_ID" -v match_="$DA_MATCH" '${VIEW_MEMBERS}' [0-9]*/task/[0-9]*/status) || exit 3
members="" everyone=""
for line in $listed; do
  case $line in m*) members=\${line#m} ;; a*) everyone=\${line#a} ;; esac
done
# Each member's ns directory as an argument, made in one pass (appending to "$@" in a loop copies
# every argument each time: seconds for the 4,000 tasks a subject may run), its listing piped to
# the reader (as a variable it was held three times over, past this probe's memory).
set --
IFS=' '
[ -z "$members" ] || set -- $(printf "$v/%s/ns/ " $members)
IFS='
'
[ $# = 1 ] && set -- "$1" "$1"
read_=$( { [ $# = 0 ] || ls -l "$@" 2>/dev/null; } | awk -v v="$v" -v members="$members" -v everyone="$everyone" -v id="$DA_ID" -v mode="$DA_MODE" '${READ_MEMBERS}') || exit 3
# A write probe at a path on disk ($1), reported under the path as printed ($2).
wprobe() {
  [ -d "$1" ] || { echo "W missing $2"; return 0; }
  f="$1/.da-probe-$DA_NONCE"
  if e=$( { : >"$f"; } 2>&1 ); then
    if rm -f "$f" 2>/dev/null; then echo "W accepted-cleaned $2"; else echo "W accepted $2"; fi
  else
    case $e in
    *"Read-only file system"* | *"Permission denied"* | *"Operation not permitted"*) echo "W refused $2" ;;
    *"No space left"* | *"quota exceeded"*) echo "W full $2" ;;
    *) echo "W failed $2" ;;
    esac
  fi
}
# An allotted root as the subject's kernel resolves it (the engine mounts it there): each symlink
# read under the subject's root, an absolute target starting again at that root (under $r it would
# resolve in this probe's filesystem), ".." never above it, at most 40 links. Fails past that, and
# past 4,096 bytes of path still to walk or 1,024 steps: each step copies what is left, and the
# links are the subject's to write (40 targets of 4,000 slashes took this shell minutes; at these
# bounds a root costs at most tens of milliseconds).
resolve() {
  left=$1 at="" hops=0 steps=0
  while [ -n "$left" ]; do
    steps=$((steps + 1))
    [ "$steps" -le 1024 ] || return 1
    case $left in /*) left=\${left#/}; continue ;; esac
    comp=\${left%%/*}
    case $left in */*) left=\${left#*/} ;; *) left="" ;; esac
    case $comp in . | "") continue ;; ..) at=\${at%/*}; continue ;; esac
    if [ -L "$r$at/$comp" ]; then
      hops=$((hops + 1))
      [ "$hops" -le 40 ] || return 1
      lt=$(readlink "$r$at/$comp") || return 1
      case $lt in /*) at="" ;; esac
      left=$lt/$left
      [ "\${#left}" -le 4096 ] || return 1
    else
      at=$at/$comp
    fi
  done
  echo "\${at:-/}"
}
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
  w) [ -n "$r" ] && wprobe "$r$path" "$printed" ;;
  d) [ -n "$r" ] || continue
    # Where the root really is, said (L) only in characters a report line carries as they are:
    # the links are the subject's to write. Unresolved, the root is probed where it was declared.
    to=$(resolve "$path") || to=$path
    case $to in "$path" | *[!A-Za-z0-9._/@+:,=-]*) to=$path ;; *) echo "L $printed $to" ;; esac
    wprobe "$r$to" "$printed" ;;
  *) echo "$line" ;;
  esac
done
`);

// The host reference: run in the host's pid/net/ipc/uts/cgroup namespaces, so /proc/self/ns is by
// construction what the engine's "host" mode shares. A process may always read its own ns links:
// no root and no SYS_PTRACE are needed (docs/security.md). Engines have no host mount-namespace
// mode; mnt is taken in measureHostNamespaces from this tool's own process when that process is
// provably in the same host namespaces, never by reading another process's links.
const HOST_SCRIPT = framed(`
echo "V 1"
for n in pid net ipc uts cgroup; do t=$(readlink /proc/self/ns/$n 2>/dev/null) && echo "N $n $t"; done
`);

// The census (check over many containers): one pass over the host's processes, as nobody with no
// capabilities, reading only the world-readable status of the processes whose cgroup names one of
// the subjects (DA_IDS). It stands in for one "ids" probe per subject: which uid, gid and
// capabilities each subject's processes (every thread of each) hold, to narrow each subject's probe
// to (never to widen it: credentials.ts).
// Builtins only in the loop: a fork per host process would cost seconds on a busy host (one awk per
// subject process reads its threads).
const CENSUS_SCRIPT = framed(`
echo "V 1"
cd /proc || return 0
for p in [0-9]*; do
  cg=""
  { while IFS= read -r l; do cg="$cg$l "; done < "$p/cgroup"; } 2>/dev/null || continue
  for id in $DA_IDS; do
    case "$cg" in *"$id"*)
      echo "C $id"
      # Every thread: the kernel keeps credentials per thread, and $p/status is the leader's alone.
      awk 'FNR == 1 { split(FILENAME, f, "/"); print "P " f[3] }
        /^(Tgid|Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/ { print "S " $0 }' "$p"/task/[0-9]*/status 2>/dev/null
      break ;;
    esac
  done
done
`);

export function censusOptions(owner: string, image: string, subjectIds: readonly string[]): ProbeSpec {
  return trustedProbe(
    owner,
    image,
    { name: "da-census", text: CENSUS_SCRIPT },
    {
      user: HOST_PROBE_USER,
      env: { DA_IDS: subjectIds.join(" ") },
      namespaces: { pid: "host", net: "none" },
      complete: frameComplete,
    },
  );
}

/** The census report as each subject's processes (by container id); verified like every report. */
export function parseCensusOutput(text: string): Map<string, ProcessEvidence[]> {
  const processes = parseProbeOutput(text, 65534, 65534).processes;
  const owner = new Map<number, string>();
  let current = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("C ")) current = line.slice(2).trim();
    else if (line.startsWith("P ") && current) owner.set(Number(line.slice(2)), current);
  }
  const out = new Map<string, ProcessEvidence[]>();
  for (const p of processes) {
    const id = owner.get(p.pid);
    if (id) out.set(id, [...(out.get(id) ?? []), p]);
  }
  return out;
}

/** The host reference runs as nobody: reading its own /proc/self/ns needs no identity at all. */
const HOST_PROBE_USER = "65534:65534";

export interface ProbeLaunch {
  subjectId: string;
  /** The host PID of the subject's init, read while the subject is frozen: the probe's way in. */
  rootPid: number;
  /**
   * Which processes of the namespace its procfs shows are the subject's (see PROBE_SCRIPT): all
   * of its own pid namespace's, those under its init when it shares the host's, those in its
   * cgroup when it shares another container's.
   */
  match: "ns" | "tree" | "cgroup";
  uid: number;
  gid: number;
  /**
   * The capabilities it holds: at most what the subject's launch granted, under the probe ceiling
   * (trusted-probe.ts), narrowed to what the subject's processes hold when they were measured. The
   * kernel shows a process's namespaces, root and mounts only to a reader with its uids and a
   * superset of its permitted set.
   */
  caps: string[];
  writableRoots: string[];
  existsPaths: string[];
  /** "ids": only read the processes' status (to learn the uid:gid of a user given by name). */
  mode?: "full" | "ids";
  /**
   * The engine-reach asks (./engine-reach.ts), when the subject has a network namespace to join: the
   * probe is then launched in it (`container:<subject>`), asks first, and may run that much longer.
   */
  reach?: ReachAsks;
  /**
   * Join that network by its path (`ns:/proc/<rootPid>/ns/net`) instead of by the container: for
   * an engine that will not start a container joined to one that itself joins a third ("generating
   * dependency graph"). The subject is frozen, so its init's PID names its namespace.
   */
  netByPath?: boolean;
}

/** Paths as the probe takes them, one a line: one with a control character in it is not probed. */
function pathList(paths: readonly string[]): string {
  return paths.filter((p) => !/[\x00-\x1f\x7f]/.test(p)).join("\n");
}

/** Where the probe's network is: none, or the subject's (see ProbeLaunch.reach and netByPath). */
function probeNet(launch: ProbeLaunch): string {
  if (!launch.reach) return "none";
  return launch.netByPath ? `ns:/proc/${launch.rootPid}/ns/net` : `container:${launch.subjectId}`;
}

/**
 * The subject probe: in the host's PID namespace (where a subject with its own cannot see it),
 * reading the subject's processes through the subject's own procfs; as the uid:gid and with the
 * capabilities `launch` says, no-new-privileges, read-only root; no network, or, to ask whether the
 * engine answers there, the subject's (the report still leaves only by the probe's own output, which
 * nothing in that network can reach).
 */
export function probeOptions(owner: string, image: string, launch: ProbeLaunch): ProbeSpec {
  const spec = trustedProbe(
    owner,
    image,
    { name: "da-probe", text: PROBE_SCRIPT },
    {
      user: `${launch.uid}:${launch.gid}`,
      env: {
        DA_ID: launch.subjectId,
        DA_MATCH: launch.match,
        DA_ROOT: String(launch.rootPid),
        DA_MODE: launch.mode ?? "full",
        DA_NONCE: randomBytes(6).toString("hex"),
        DA_ROOTS: pathList(launch.writableRoots),
        DA_EXISTS: pathList(launch.existsPaths),
        ...(launch.reach ? reachEnv(launch.reach) : {}),
      },
      namespaces: { pid: "host", net: probeNet(launch) },
      caps: launch.caps,
      complete: frameComplete,
    },
  );
  return launch.reach ? { ...spec, timeoutMs: spec.timeoutMs + reachDeadlineMs(launch.reach) } : spec;
}

export function hostProbeOptions(owner: string, image: string): ProbeSpec {
  return trustedProbe(
    owner,
    image,
    { name: "da-host-probe", text: HOST_SCRIPT },
    {
      user: HOST_PROBE_USER,
      // It only reads its own /proc/self/ns links: no capability at all.
      namespaces: { pid: "host", net: "host", ipc: "host", uts: "host", cgroup: "host" },
      complete: frameComplete,
    },
  );
}

export class ProbeParseError extends Error {
  override name = "ProbeParseError";
}

/**
 * The verified lines of a framed report (see `framed`). Throws when there is no trailer, when the
 * byte length or SHA-256 of what precedes it differs (a line lost, split or merged on the way), or
 * when anything follows it.
 */
function verifiedLines(text: string): string[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const cut = body.lastIndexOf("\n") + 1;
  const trailer = /^Z\s+(\d+)\s+([0-9a-f]{64})$/.exec(body.slice(cut).trim());
  if (!trailer)
    throw new ProbeParseError("probe report is truncated or not a report (no 'Z <length> <sha256>' trailer)");
  const payload = Buffer.from(body.slice(0, cut), "utf8");
  const [length, digest] = [Number(trailer[1]), trailer[2]];
  if (payload.length !== length)
    throw new ProbeParseError(
      `probe report does not verify: ${payload.length} bytes received, ${length} sent`,
    );
  if (createHash("sha256").update(payload).digest("hex") !== digest)
    throw new ProbeParseError(
      "probe report does not verify: its SHA-256 differs from the one the probe sent",
    );
  const lines = payload.toString("utf8").split("\n").slice(0, -1);
  if (lines[0] !== "V 1") throw new ProbeParseError("probe report does not start with 'V 1'");
  return lines;
}

/** Parses the probe's report. Throws when it is not one (wrong image, truncated or altered output). */
export function parseProbeOutput(text: string, uid: number, gid: number): ProbeEvidence {
  const lines = verifiedLines(text);
  const ev: ProbeEvidence = {
    processes: [],
    mountinfo: [],
    writes: [],
    exists: {},
    rootReadable: false,
    uid,
    gid,
  };
  let cur: ProcessEvidence | undefined;
  for (const line of lines) {
    const tag = line.slice(0, 1);
    const rest = line.slice(2);
    switch (tag) {
      case "P":
        cur = { pid: Number(rest), status: {}, ns: {}, unreadable: [] };
        ev.processes.push(cur);
        break;
      case "S": {
        const i = rest.indexOf(":");
        if (cur && i > 0) cur.status[rest.slice(0, i)] = rest.slice(i + 1).trim();
        break;
      }
      case "N": {
        const [name, target] = rest.split(" ");
        if (cur && name && target) cur.ns[name] = target;
        break;
      }
      case "U":
        if (!cur) unreached(rest);
        else if (!cur.unreadable.includes(rest)) cur.unreadable.push(rest);
        break;
      case "A":
        if (cur) cur.lsm = rest.replace(/\0/g, "").trim();
        break;
      case "D":
        if (cur) cur.interfaces = rest.trim().split(/\s+/).filter(Boolean);
        break;
      default:
        subjectRecord(ev, tag, rest);
    }
  }
  for (const p of ev.processes) finishTask(p);
  const reach = parseReach(lines);
  if (reach) ev.reach = reach;
  return ev;
}

/** A record of the subject as a whole (its mounts, root, sockets, other processes, probes' writes). */
function subjectRecord(ev: ProbeEvidence, tag: string, rest: string): void {
  switch (tag) {
    case "M":
      ev.mountinfo.push(rest);
      break;
    case "R":
      ev.rootReadable = rest.trim() === "1";
      break;
    case "I":
      ev.held = decodeCaps(rest.trim());
      break;
    case "K":
      ev.sockets = [...(ev.sockets ?? []), unescapeOctal(rest)];
      break;
    case "O": {
      const [count, container] = rest.trim().split(/\s+/);
      ev.foreign = [
        ...(ev.foreign ?? []),
        { count: Number(count), ...(container && container !== "-" ? { container } : {}) },
      ];
      break;
    }
    case "X": {
      const [flag, path] = [rest.slice(0, 1), unescapeOctal(rest.slice(2))];
      ev.exists[path] = flag === "1";
      break;
    }
    case "W": {
      const write = writeRecord(rest);
      if (write) ev.writes.push(write);
      break;
    }
    case "L": {
      const [declared, resolved] = rest.split(" ");
      if (declared && resolved?.startsWith("/"))
        ev.resolvedRoots = { ...ev.resolvedRoots, [unescapeOctal(declared)]: resolved };
      break;
    }
  }
}

/** A task's record once its lines are read: what was not, and the process it is a thread of. */
function finishTask(p: ProcessEvidence): void {
  if (Object.keys(p.status).length === 0) p.unreadable.push("status");
  const group = Number(p.status.Tgid);
  if (Number.isInteger(group) && group > 0 && group !== p.pid) p.threadOf = group;
}

/** A W record: what became of the probe's write at a path (the kernel's octal escapes undone). */
function writeRecord(rest: string): WriteProbe | undefined {
  const sp = rest.indexOf(" ");
  const kind = rest.slice(0, sp);
  const path = unescapeOctal(rest.slice(sp + 1));
  if (kind === "accepted-cleaned") return { path, result: "accepted", cleaned: true };
  if (kind === "accepted") return { path, result: "accepted", cleaned: false };
  // Full: writable, but no file fits (a subject can fill a place to make it look refused).
  if (kind === "full") return { path, result: "accepted", cleaned: true, full: true };
  if (kind === "refused" || kind === "missing" || kind === "failed") return { path, result: kind };
  return undefined;
}

/** A report that could read nothing of the subject through its /proc says why ("U view"). */
function unreached(what: string): never {
  if (what === "view")
    throw new ProbeParseError(
      "the subject's /proc is not the kernel's view of its PID namespace (another procfs is mounted there): nothing read through it is evidence",
    );
  throw new ProbeParseError(`the probe's report says ${JSON.stringify(`U ${what}`)} before any process`);
}

export function parseHostOutput(text: string): {
  ns: Record<string, string>;
  sources: Record<string, string>;
} {
  const lines = verifiedLines(text);
  const ns: Record<string, string> = {};
  const sources: Record<string, string> = {};
  for (const line of lines) {
    const [tag, name, value] = line.split(" ");
    if (tag === "N" && name && value) ns[name] = value;
    if (tag === "F" && name && value) sources[name] = value;
  }
  return { ns, sources };
}
