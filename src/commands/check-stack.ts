// `check` on a stack: each container's allowances may come from labels on the container itself
// (overriding the command-line defaults), and every fix is said the way that container was
// started: compose keys for a compose service, the engine CLI's flags otherwise (the texts are the
// case catalogue's, src/cases/). Check mode has no inventory, so nothing here names one.

import { remediationOf } from "../cases/index.js";
import { UsageError } from "../errors.js";
import type { CaseResult } from "../report/model.js";
import { type HostPathAllowance, parseHostPathAllowance } from "../suites/containment/index.js";

export const ALLOWANCE_LABELS = {
  writableRoots: "org.docker-acceptance.writable-roots",
  allowedCapabilities: "org.docker-acceptance.allowed-capabilities",
  network: "org.docker-acceptance.network",
  hostPaths: "org.docker-acceptance.host-paths",
} as const;

const COMPOSE_PROJECT = "com.docker.compose.project";
const COMPOSE_SERVICE = "com.docker.compose.service";

type Network = "none" | "bridge" | "any";

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

/**
 * The allowance labels the container's own launch set, apart from those it only inherited from its
 * image. An engine gives a container every label of its image (a Dockerfile's LABEL) under its
 * own, so an image could allow itself whatever it does: the labels that speak for the deployer are
 * those the launch set or changed. A label equal to the image's is the image's claim, however it
 * got there (a deployer who wants it says so in a value of its own, or on the command line);
 * `image` undefined (its labels could not be read) leaves no allowance label standing.
 */
export function launchLabels(
  labels: Record<string, string>,
  image: Record<string, string> | undefined,
): { labels: Record<string, string>; ofTheImage: Record<string, string> } {
  const own = { ...labels };
  const ofTheImage: Record<string, string> = {};
  for (const label of Object.values(ALLOWANCE_LABELS)) {
    const value = labels[label];
    if (value === undefined || (image !== undefined && image[label] !== value)) continue;
    ofTheImage[label] = value;
    delete own[label];
  }
  return { labels: own, ofTheImage };
}

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
type FixForm = { kind: "compose"; project: string; service: string } | { kind: "run" };

function fixFormOf(labels: Record<string, string>): FixForm {
  const project = labels[COMPOSE_PROJECT];
  const service = labels[COMPOSE_SERVICE];
  return project && service ? { kind: "compose", project, service } : { kind: "run" };
}

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
export function checkModeFix(result: CaseResult, form: FixForm): string | undefined {
  if (!result.remediation || result.suite !== "containment") return result.remediation;
  const fix = remediationOf(result.id, form.kind === "compose" ? "compose" : "cli");
  if (fix === undefined) return result.remediation;
  const ports = result.id === "containment.network" ? [...new Set(loopbackPorts(result))] : [];
  if (form.kind === "compose") {
    const concrete = ports.length ? ` Here: \`ports: [${ports.map((p) => `"${p}"`).join(", ")}]\`.` : "";
    return `In service \`${form.service}\` of compose project \`${form.project}\`: ${fix}${concrete}`;
  }
  const concrete = ports.length ? ` Here: ${ports.map((p) => `\`-p ${p}\``).join(" ")}.` : "";
  return `${fix}${concrete}`;
}

/**
 * One container's case results as check mode reports them: fixes in the container's own form, and
 * the allowances its labels set recorded in the evidence (a label that relaxes must show).
 */
export function checkModeCases(
  cases: CaseResult[],
  labels: Record<string, string>,
  fromLabels: Record<string, string>,
  /** Allowance labels the container only inherited from its image: not taken (launchLabels). */
  ofTheImage: Record<string, string> = {},
): CaseResult[] {
  const form = fixFormOf(labels);
  const said = {
    ...(Object.keys(fromLabels).length > 0 ? { allowancesFromLabels: fromLabels } : {}),
    ...(Object.keys(ofTheImage).length > 0 ? { allowanceLabelsOfTheImage: ofTheImage } : {}),
  };
  const labelled = Object.keys(said).length > 0;
  return cases.map((c) => {
    const remediation = checkModeFix(c, form);
    return {
      ...c,
      ...(remediation === undefined ? {} : { remediation }),
      ...(labelled && c.suite === "containment" ? { evidence: { ...c.evidence, ...said } } : {}),
    };
  });
}
