// The fault matrix as data (acceptance/fixtures/faults/faults.json) and how a fixture's deviation
// is laid over the hardened launch settings. Shared by the matrix test and the recorder.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type CreateOptions, createBody } from "../../src/engine/providers/docker/translate.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";

export const FAULTS_DIR = path.resolve("acceptance/fixtures/faults");
export const HARDENED_DIR = path.resolve("acceptance/fixtures/hardened");

export interface FaultFixture {
  name: string;
  image?: string;
  launch?: Record<string, unknown>;
  recorded?: string;
  why?: string;
  fails: string[];
  /** A safe twin: one harmless deviation that must pass every case. */
  safe?: boolean;
  /** Grading target overrides (what the inventory or check flags would allow). */
  target?: { allowedHostPaths?: { path: string; readOnly: boolean }[]; allowedCapabilities?: string[] };
  /** A hardened container started before the subject, with this deviation: {PEER}. */
  peer?: Record<string, unknown>;
  /** A hardened container started after the subject, with this deviation: {SUBJECT}. */
  joiner?: Record<string, unknown>;
  /** Unix sockets the test listens on in {HOST_DIR} while the fixtures run (names). */
  sockets?: string[];
  /** Symlinks the test makes in {HOST_DIR} before any fixture starts: name -> target. */
  links?: Record<string, string>;
  /**
   * A named volume created with these local-driver options: {VOLUME}. Host-sized values:
   * {=HOST_MEMORY_X4}, {=HOST_MEMORY_HALF}, {=HOST_NANO_CPUS}, {HOST_LAST_CPU}; {TMPFS_DIR} is a
   * directory the test makes on a tmpfs (/dev/shm).
   */
  volume?: Record<string, string>;
  /** A process started in the running subject. */
  exec?: { User: string; Cmd: string[] };
  /** A seccomp profile (or "engine-default") appended to SecurityOpt. */
  seccomp?: Record<string, unknown> | "engine-default";
  /** Text a case's message must contain (placeholders resolved). */
  mentions?: Record<string, string>;
}

/** The engine's default seccomp profile, from the Debian package of its source (or DA_SECCOMP_DEFAULT). */
export const ENGINE_DEFAULT_SECCOMP =
  process.env.DA_SECCOMP_DEFAULT ??
  "/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json";

/** The profile text a fixture asks for; undefined when it needs a file this machine lacks. */
export function seccompProfileText(f: FaultFixture): string | undefined {
  if (f.seccomp === undefined) return undefined;
  if (f.seccomp !== "engine-default") return JSON.stringify(f.seccomp);
  return existsSync(ENGINE_DEFAULT_SECCOMP)
    ? JSON.stringify(JSON.parse(readFileSync(ENGINE_DEFAULT_SECCOMP, "utf8")))
    : undefined;
}

/**
 * `{KEY}` placeholders in a fixture's data, replaced by the values the test created; a string that
 * is exactly `{=KEY}` becomes the number (a limit sized from the host, e.g. {=HOST_MEMORY_X4}).
 */
export function resolveVars<T>(value: T, vars: Record<string, string>): T {
  let text = JSON.stringify(value ?? null);
  for (const [k, v] of Object.entries(vars)) {
    if (/^-?\d+$/.test(v)) text = text.replaceAll(`"{=${k}}"`, v);
    text = text.replaceAll(`{${k}}`, v);
  }
  return JSON.parse(text) as T;
}

export function loadFaults(): FaultFixture[] {
  const doc = JSON.parse(readFileSync(path.join(FAULTS_DIR, "faults.json"), "utf8")) as {
    fixtures: FaultFixture[];
  };
  return doc.fixtures;
}

/** The hardened subject as the inventory's defaults declare it, its user stated (the bare base image has none). */
export const hardenedSubject = subjectSchema.parse({
  name: "hardened",
  build: { context: "acceptance/fixtures/hardened" },
  user: "65532:65532",
  init: true,
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** HostConfig keys replace; object values (Tmpfs) merge; null removes. */
export function applyDeviation(
  base: CreateOptions,
  launch: Record<string, unknown> = {},
  vars: Record<string, string> | string = {},
): CreateOptions {
  const dev = resolveVars(launch, typeof vars === "string" ? { HOST_DIR: vars } : vars);
  const out = structuredClone(base) as Record<string, unknown>;
  const merge = (target: Record<string, unknown>, src: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(src)) {
      if (v === null) delete target[k];
      else if (isObject(v) && isObject(target[k]) && k !== "PortBindings")
        merge(target[k] as Record<string, unknown>, v);
      else target[k] = v;
    }
  };
  merge(out, dev);
  return out as CreateOptions;
}

export function fixtureLaunch(
  f: FaultFixture,
  image: string,
  owner: string,
  name: string,
  vars: Record<string, string> | string = {},
): CreateOptions {
  const options = createBody(planLaunch(hardenedSubject, image, owner, name).spec);
  const out = applyDeviation(options, f.launch, vars);
  const profile = seccompProfileText(f);
  if (profile) {
    const hc = out.HostConfig as { SecurityOpt?: string[] };
    hc.SecurityOpt = [...(hc.SecurityOpt ?? []), `seccomp=${profile}`];
  }
  return out;
}

/** A hardened companion container (peer or joiner) with its own deviation. */
export function companionLaunch(
  deviation: Record<string, unknown>,
  image: string,
  owner: string,
  name: string,
  vars: Record<string, string>,
): CreateOptions {
  return applyDeviation(createBody(planLaunch(hardenedSubject, image, owner, name).spec), deviation, vars);
}
