// Every trusted probe launches the same way, whatever the engine: the pinned image, labelled as
// the run's own, never gaining privileges, read-only root, every capability dropped but the ones
// the spec names, small limits. Providers launch this spec; none may loosen it. Both suites probe
// through here: containment measures the subject's processes, lifecycle reaches a subject that has
// no network from inside its network namespace.
import { ownerLabels } from "./ownership.js";
import type { Engine, LaunchSpec, ProbeSpec } from "./provider.js";

export function probeLaunch(p: ProbeSpec): LaunchSpec {
  return {
    image: p.image,
    user: p.user,
    env: p.env,
    entrypoint: ["/bin/sh", "-c", p.script.text, p.script.name],
    command: [],
    labels: p.labels,
    init: false,
    readOnlyRoot: true,
    capabilities: { drop: ["ALL"], add: p.capabilities },
    noNewPrivileges: true,
    namespaces: p.namespaces,
    limits: { memoryBytes: 32 * 1024 * 1024, pids: 64 },
    tmpfs: {},
    publish: [],
  };
}

const PROBE_TIMEOUT_MS = 20_000;

/**
 * Every trusted probe: a POSIX sh script in the pinned image, labelled as this run's probe, never
 * gaining privileges, read-only, small (the engine launches it so: probeLaunch above).
 * Callers add only what is particular to them: user, environment, namespaces, capabilities.
 */
export function trustedProbe(
  owner: string,
  image: string,
  script: { name: string; text: string },
  p: { user: string; env?: Record<string, string>; namespaces: ProbeSpec["namespaces"]; caps?: string[] },
): ProbeSpec {
  return {
    image,
    labels: ownerLabels(owner, "probe"),
    script,
    user: p.user,
    env: p.env ?? {},
    namespaces: p.namespaces,
    capabilities: p.caps ?? [],
    timeoutMs: PROBE_TIMEOUT_MS,
  };
}

/** Runs a probe to completion; the engine removes it at once (cleanup is only the safety net). */
export function runProbe(
  engine: Engine,
  spec: ProbeSpec,
  signal?: AbortSignal,
  /** How long the probe may run; a probe that polls until a deadline passes that deadline plus a margin. */
  timeoutMs = spec.timeoutMs,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  return engine.probe({ ...spec, timeoutMs }, signal);
}
