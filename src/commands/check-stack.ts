// `check` on a stack: each container's allowances may come from labels on the container itself
// (overriding the command-line defaults), and every fix is said the way that container was
// started: compose keys for a compose service, `docker run` flags otherwise. Check mode has no
// inventory, so nothing here names one.
import { UsageError } from "../errors.js";
import type { CaseResult } from "../report/model.js";
import { type HostPathAllowance, parseHostPathAllowance } from "../suites/containment/index.js";
import type { ContainmentCaseId } from "../suites/ids.js";

export const ALLOWANCE_LABELS = {
  writableRoots: "org.docker-acceptance.writable-roots",
  allowedCapabilities: "org.docker-acceptance.allowed-capabilities",
  network: "org.docker-acceptance.network",
  hostPaths: "org.docker-acceptance.host-paths",
} as const;

const COMPOSE_PROJECT = "com.docker.compose.project";
const COMPOSE_SERVICE = "com.docker.compose.service";

export type Network = "none" | "bridge" | "any";

export interface Allowances {
  writableRoots: string[];
  allowedCapabilities: string[];
  network: Network;
  allowedHostPaths: HostPathAllowance[];
}

const list = (v: string) =>
  v
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** A container's allowances: each label present replaces that default; a bad value is a usage error. */
export function allowancesFor(
  container: string,
  labels: Record<string, string>,
  defaults: Allowances,
): { allowances: Allowances; fromLabels: Record<string, string> } {
  const out = { ...defaults };
  const fromLabels: Record<string, string> = {};
  const bad = (label: string, expected: string): never => {
    throw new UsageError(
      `container ${JSON.stringify(container)}: label ${label}=${JSON.stringify(labels[label])}: expected ${expected}`,
    );
  };
  const roots = labels[ALLOWANCE_LABELS.writableRoots];
  if (roots !== undefined) {
    const paths = list(roots);
    if (paths.some((p) => !p.startsWith("/")))
      bad(ALLOWANCE_LABELS.writableRoots, "absolute paths separated by commas, such as /tmp,/data");
    out.writableRoots = paths;
    fromLabels[ALLOWANCE_LABELS.writableRoots] = labels[ALLOWANCE_LABELS.writableRoots]!;
  }
  const caps = labels[ALLOWANCE_LABELS.allowedCapabilities];
  if (caps !== undefined) {
    const names = list(caps);
    if (names.some((c) => !/^(CAP_)?[A-Z_]+$/i.test(c)))
      bad(
        ALLOWANCE_LABELS.allowedCapabilities,
        "capability names separated by commas, such as NET_BIND_SERVICE",
      );
    out.allowedCapabilities = names.map((c) => c.toUpperCase().replace(/^CAP_/, ""));
    fromLabels[ALLOWANCE_LABELS.allowedCapabilities] = labels[ALLOWANCE_LABELS.allowedCapabilities]!;
  }
  const network = labels[ALLOWANCE_LABELS.network];
  if (network !== undefined) {
    if (network !== "none" && network !== "bridge" && network !== "any")
      bad(ALLOWANCE_LABELS.network, "none, bridge or any");
    out.network = network as Network;
    fromLabels[ALLOWANCE_LABELS.network] = labels[ALLOWANCE_LABELS.network]!;
  }
  const hostPaths = labels[ALLOWANCE_LABELS.hostPaths];
  if (hostPaths !== undefined) {
    try {
      out.allowedHostPaths = list(hostPaths).map(parseHostPathAllowance);
    } catch {
      bad(
        ALLOWANCE_LABELS.hostPaths,
        "absolute host paths, each optionally :ro or :rw, separated by commas, such as /srv/data:ro",
      );
    }
    fromLabels[ALLOWANCE_LABELS.hostPaths] = hostPaths;
  }
  return { allowances: out, fromLabels };
}

/** How a container was started, as far as its labels tell: the form its fixes are given in. */
export type FixForm = { kind: "compose"; project: string; service: string } | { kind: "run" };

export function fixFormOf(labels: Record<string, string>): FixForm {
  const project = labels[COMPOSE_PROJECT];
  const service = labels[COMPOSE_SERVICE];
  return project && service ? { kind: "compose", project, service } : { kind: "run" };
}

const L = ALLOWANCE_LABELS;

/** Per case: the `docker run` form and the compose form (keys of the service). */
const FIXES: Record<ContainmentCaseId, { run: string; compose: string }> = {
  "containment.user": {
    run: "Add `USER 65532:65532` (any non-zero uid and gid) to the image's Dockerfile, or start it with `--user 65532:65532`; never root, 0, 0:0 or empty.",
    compose:
      'Add `USER 65532:65532` (any non-zero uid and gid) to the image\'s Dockerfile, or set `user: "65532:65532"` on the service; never root, 0, 0:0 or empty.',
  },
  "containment.capabilities": {
    run: `Start it with \`--cap-drop ALL\` and \`--cap-add\` only what it needs; remove \`--privileged\`. A capability it needs is allowed with the label \`${L.allowedCapabilities}=NET_BIND_SERVICE\` or \`--allow-cap\`.`,
    compose: `Set \`cap_drop: [ALL]\` and list only what it needs under \`cap_add:\`; remove \`privileged: true\`. A capability it needs is allowed with the label \`${L.allowedCapabilities}: NET_BIND_SERVICE\` under \`labels:\`.`,
  },
  "containment.no_new_privileges": {
    run: "Start it with `--security-opt no-new-privileges=true`; remove any `no-new-privileges=false`.",
    compose: 'Set `security_opt: ["no-new-privileges:true"]`; remove any `no-new-privileges:false`.',
  },
  "containment.seccomp": {
    run: "Remove `--security-opt seccomp=unconfined` and `--privileged` so the engine's default seccomp profile applies (or pass a stricter profile).",
    compose:
      "Remove `seccomp:unconfined` from `security_opt` and `privileged: true` so the engine's default seccomp profile applies (or name a stricter profile).",
  },
  "containment.privileged": {
    run: "Remove `--privileged`; grant single capabilities or devices instead.",
    compose: "Remove `privileged: true`; grant single capabilities (`cap_add`) or `devices` instead.",
  },
  "containment.namespaces": {
    run: "Remove `--pid host`, `--network host`, `--ipc host`, `--uts host` and `--cgroupns host` (and `container:` forms); start it with `--cgroupns private --ipc private`.",
    compose:
      "Remove `pid: host`, `network_mode: host`, `ipc: host`, `uts: host` and `cgroup: host` (and `service:`/`container:` forms); set `ipc: private` and `cgroup: private`.",
  },
  "containment.rootfs_readonly": {
    run: "Start it with `--read-only` and a `--tmpfs` for each directory it writes (`--tmpfs /tmp`).",
    compose: 'Set `read_only: true` and list each directory it writes under `tmpfs:` (`tmpfs: ["/tmp"]`).',
  },
  "containment.mounts": {
    run: `Remove the mounts listed as findings (\`-v\`/\`--mount\` binds and volumes, or add \`:ro\`; extra \`--tmpfs\`; engine sockets). Allow a host directory it needs with the label \`${L.hostPaths}=/srv/data:ro\` (never /, /etc, /proc, /sys, /home, /var/lib/docker or a socket), and a path it must write, such as a Dockerfile \`VOLUME\`, with \`${L.writableRoots}=/tmp,/data\`.`,
    compose: `Remove the \`volumes:\` and \`tmpfs:\` entries listed as findings (or add \`:ro\`), and any engine socket. Allow a host directory it needs with the label \`${L.hostPaths}: /srv/data:ro\` (never /, /etc, /proc, /sys, /home, /var/lib/docker or a socket), and a path it must write, such as a Dockerfile \`VOLUME\`, with \`${L.writableRoots}: /tmp,/data\`.`,
  },
  "containment.writable_roots": {
    run: `Make every writable place outside the allowed roots refuse its user (remove the mount, add \`:ro\`, or fix ownership) and mount each allowed root \`--tmpfs /tmp:rw,noexec,nosuid,nodev\`; allowed roots: label \`${L.writableRoots}\` or \`--writable-root\`.`,
    compose: `Make every writable place outside the allowed roots refuse its user (remove the \`volumes:\` entry, add \`:ro\`, or fix ownership) and list each allowed root under \`tmpfs:\` (\`/tmp:rw,noexec,nosuid,nodev\`); allowed roots: label \`${L.writableRoots}\`.`,
  },
  "containment.devices": {
    run: "Remove `--device`, `--gpus` and `--device-cgroup-rule`.",
    compose: "Remove `devices:`, `device_cgroup_rules:` and device reservations under `deploy.resources`.",
  },
  "containment.resources": {
    run: "Start it with `--memory 256m --pids-limit 128 --cpus 1` (sized for the service).",
    compose: "Set `mem_limit: 256m`, `pids_limit: 128` and `cpus: 1` (sized for the service).",
  },
  "containment.network": {
    run: `Publish ports on loopback only (\`-p 127.0.0.1:8080:8080\`), never on 0.0.0.0, and never \`--network host\`; a service declared without network runs with \`--network none\` (label \`${L.network}\`).`,
    compose: `Publish ports on loopback only (\`ports: ["127.0.0.1:8080:8080"]\`), never on 0.0.0.0, and never \`network_mode: host\`; a service declared without network sets \`network_mode: none\` (label \`${L.network}\`).`,
  },
  "containment.masked_paths": {
    run: "Remove `--security-opt systempaths=unconfined` and `--privileged` so the engine masks /proc and /sys paths.",
    compose:
      "Remove `systempaths=unconfined` from `security_opt` and `privileged: true` so the engine masks /proc and /sys paths.",
  },
};

/** `0.0.0.0:8080->8080/tcp` -> `127.0.0.1:8080:8080`, for a fix that names the real ports. */
function loopbackPorts(c: CaseResult): string[] {
  const published = (c.evidence as { published?: unknown }).published;
  if (!Array.isArray(published)) return [];
  return published.flatMap((p) => {
    const m = /:(\d+)->(\d+)\/(tcp|udp|sctp)$/.exec(String(p));
    return m ? [`127.0.0.1:${m[1]}:${m[2]}${m[3] === "tcp" ? "" : `/${m[3]}`}`] : [];
  });
}

/** The check-mode fix of one case result, in the form the container was started with. */
export function checkModeFix(c: CaseResult, form: FixForm): string | undefined {
  if (!c.remediation || c.suite !== "containment") return c.remediation;
  const fix = FIXES[c.id as ContainmentCaseId];
  if (!fix) return c.remediation;
  const ports = c.id === "containment.network" ? [...new Set(loopbackPorts(c))] : [];
  if (form.kind === "compose") {
    const concrete = ports.length ? ` Here: \`ports: [${ports.map((p) => `"${p}"`).join(", ")}]\`.` : "";
    return `In service \`${form.service}\` of compose project \`${form.project}\`: ${fix.compose}${concrete}`;
  }
  const concrete = ports.length ? ` Here: ${ports.map((p) => `\`-p ${p}\``).join(" ")}.` : "";
  return `${fix.run}${concrete}`;
}

/**
 * One container's case results as check mode reports them: fixes in the container's own form, and
 * the allowances its labels set recorded in the evidence (a label that relaxes must show).
 */
export function checkModeCases(
  cases: CaseResult[],
  labels: Record<string, string>,
  fromLabels: Record<string, string>,
): CaseResult[] {
  const form = fixFormOf(labels);
  const labelled = Object.keys(fromLabels).length > 0;
  return cases.map((c) => {
    const remediation = checkModeFix(c, form);
    return {
      ...c,
      ...(remediation === undefined ? {} : { remediation }),
      ...(labelled && c.suite === "containment"
        ? { evidence: { ...c.evidence, allowancesFromLabels: fromLabels } }
        : {}),
    };
  });
}
