// The trusted probes: a POSIX sh script run by busybox in a pinned image (never the subject's),
// and the parser for its line report. Evidence only; no judgement here.

import { createHash, randomBytes } from "node:crypto";
import type { ProbeSpec } from "../../engine/provider.js";
import { trustedProbe } from "../../engine/trusted-probe.js";
import type { ProbeEvidence, ProcessEvidence } from "./evidence.js";

/**
 * The report's frame: the body's output, then one trailer line `Z <bytes> <sha256>` over exactly
 * the lines before it. An engine's log path may drop, split or merge lines (one engine merges
 * a split line into the one before); a report whose length or digest does not match is not evidence.
 */
export function framed(body: string): string {
  return `report() {
${body}
}
out=$(report)
printf '%s\n' "$out"
printf 'Z %s %s\n' "$(printf '%s\n' "$out" | wc -c)" "$(printf '%s\n' "$out" | sha256sum | cut -d' ' -f1)"
`;
}

// One script, parameters in the environment (never interpolated). The probe joins the subject's
// pid namespace, so the subject's processes are found by membership, not by cgroup path (rootless
// engines on cgroup v1 give containers none): DA_MATCH=ns takes every process in that namespace
// except the probe's own (those whose parent chain reaches this shell); DA_MATCH=tree (a subject
// sharing the host's namespace) takes DA_ROOT, its init's pid, and everything under it;
// DA_MATCH=cgroup (a subject sharing another container's) falls back to DA_ID in
// /proc/<pid>/cgroup. Output is one tagged record per line. Files are read in awk, one process
// for many files, not a command per file: 35 probes at once on 2 cores spent half their script time
// forking (measured: 32 ms of CPU per probe before, 14 ms after). busybox awk stops at a file it
// cannot open, so each is read with getline, which only fails for that file (a process can exit
// while it is read).
export const PROBE_SCRIPT = framed(String.raw`
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
`);

// The host reference: run in the host's pid/net/ipc/uts/cgroup namespaces, so /proc/self/ns is by
// construction what the engine's "host" mode shares. A process may always read its own ns links:
// no root and no SYS_PTRACE are needed (docs/security.md). Engines have no host mount-namespace
// mode; mnt is taken in measureHostNamespaces from this tool's own process when that process is
// provably in the same host namespaces, never by reading another process's links.
export const HOST_SCRIPT = framed(`
echo "V 1"
for n in pid net ipc uts cgroup; do t=$(readlink /proc/self/ns/$n 2>/dev/null) && echo "N $n $t"; done
`);

// The census (check over many containers): one pass over the host's processes, as nobody with no
// capabilities, reading only the world-readable status of the processes whose cgroup names one of
// the subjects (DA_IDS). It stands in for one "ids" probe per subject: which uid, gid and
// capabilities each subject's processes hold, so each subject's own probe gets exactly those.
// Builtins only in the loop: a fork per host process would cost seconds on a busy host.
export const CENSUS_SCRIPT = framed(String.raw`
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
export const HOST_PROBE_USER = "65534:65534";

export interface ProbeLaunch {
  subjectId: string;
  /**
   * How the subject's processes are told apart (see PROBE_SCRIPT): its own pid namespace, the
   * tree under `rootPid` (its init, when it shares the host's), or its cgroup path.
   */
  match: { by: "ns" } | { by: "tree"; rootPid: number } | { by: "cgroup" };
  uid: number;
  gid: number;
  /**
   * The capabilities the subject's processes hold (their measured permitted sets): the probe gets
   * exactly these, so it never holds more than the subject, and the kernel lets it read the
   * subject's /proc entries (which needs a superset of the target's permitted set).
   */
  caps: string[];
  writableRoots: string[];
  existsPaths: string[];
  /** "ids": only read the processes' status (to learn the uid:gid of a user given by name). */
  mode?: "full" | "ids";
}

/**
 * The subject probe. It joins only the subject's pid namespace, runs as the subject's uid:gid with
 * the capabilities the subject's processes were measured to hold (the kernel refuses
 * /proc/<pid>/ns, root and mountinfo to a reader whose set is not a superset of the target's; a
 * subject with no capabilities gets a probe with none), no-new-privileges, read-only root, no network.
 */
export function probeOptions(owner: string, image: string, l: ProbeLaunch): ProbeSpec {
  return trustedProbe(
    owner,
    image,
    { name: "da-probe", text: PROBE_SCRIPT },
    {
      user: `${l.uid}:${l.gid}`,
      env: {
        DA_ID: l.subjectId,
        DA_MATCH: l.match.by,
        DA_ROOT: l.match.by === "tree" ? String(l.match.rootPid) : "",
        DA_MODE: l.mode ?? "full",
        DA_NONCE: randomBytes(6).toString("hex"),
        DA_ROOTS: l.writableRoots.join(" "),
        DA_EXISTS: l.existsPaths.join(" "),
      },
      namespaces: { pid: `container:${l.subjectId}`, net: "none" },
      caps: l.caps,
    },
  );
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
export function verifiedLines(text: string): string[] {
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
        if (cur && !cur.unreadable.includes(rest)) cur.unreadable.push(rest);
        break;
      case "A":
        if (cur) cur.lsm = rest.replace(/\0/g, "").trim();
        break;
      case "D":
        if (cur) cur.interfaces = rest.trim().split(/\s+/).filter(Boolean);
        break;
      case "M":
        ev.mountinfo.push(rest);
        break;
      case "R":
        ev.rootReadable = rest.trim() === "1";
        break;
      case "K":
        ev.sockets = [...(ev.sockets ?? []), rest];
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
        const [flag, path] = [rest.slice(0, 1), rest.slice(2)];
        ev.exists[path] = flag === "1";
        break;
      }
      case "W": {
        const sp = rest.indexOf(" ");
        const kind = rest.slice(0, sp);
        const path = rest.slice(sp + 1);
        if (kind === "accepted-cleaned") ev.writes.push({ path, result: "accepted", cleaned: true });
        else if (kind === "accepted") ev.writes.push({ path, result: "accepted", cleaned: false });
        else if (kind === "refused" || kind === "missing") ev.writes.push({ path, result: kind });
        break;
      }
    }
  }
  for (const p of ev.processes) if (Object.keys(p.status).length === 0) p.unreadable.push("status");
  return ev;
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
