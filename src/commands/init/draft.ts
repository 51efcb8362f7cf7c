// A first inventory from the repository as it is: one subject per compose service with a `build:`
// and per other Dockerfile, each described by where its settings came from (its `description`,
// since JSON has no comments), and every current case of every suite pinned.
//
// What the image declares is graded as it is: the Dockerfile's USER is described, not copied into
// `user` (which would keep forcing that user after a change dropped the line); a compose `user:`
// is the deployment's, so it is. Readiness is the TCP port when there is one (the image's
// HEALTHCHECK is then held by lifecycle.probes at once, on every engine), else the HEALTHCHECK
// (waited on past its first check, within the start-up bound), else a 2 s delay, said as such.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { CASES_BY_SUITE, SUITES } from "../../cases/index.js";
import { ConfigError } from "../../errors.js";
import { resolveInWorkspace } from "../../inventory/load.js";
import { BOUNDS } from "../../inventory/rules.js";
import { INVENTORY_SCHEMA_VERSION, subjectSchema } from "../../inventory/schema.js";
import { checkLaunchSpec } from "../../suites/lifecycle/create.js";
import { type ComposeService, readCompose } from "./compose.js";
import { type ImageFacts, readImageFacts } from "./dockerfile.js";
import { scanWorkspace } from "./scan.js";

const MAX_FILE_BYTES = 1024 * 1024;
const DEFAULT_ROOTS = ["/tmp", "/dev/shm"];
const SUBJECT_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

type SubjectJson = Record<string, unknown> & {
  name: string;
  build: { context: string; dockerfile?: string; target?: string };
};

export interface Draft {
  subjects: SubjectJson[];
  /** Files the subjects were read from, workspace-relative. */
  sources: string[];
  /** What the user should know: roots, unread values, services that are not subjects. */
  notes: string[];
}

export async function draftSubjects(workspace: string): Promise<Draft> {
  const scan = await scanWorkspace(workspace);
  const draft: Draft = { subjects: [], sources: [], notes: [...scan.notes] };
  const used = new Set<string>();
  const names = new Set<string>();
  if (scan.compose) {
    draft.sources.push(scan.compose);
    const compose = composeOf(workspace, scan.compose, await readBounded(workspace, scan.compose));
    draft.notes.push(...compose.notes);
    for (const service of compose.services) {
      draft.notes.push(...service.notes);
      if (!service.build) {
        if (service.image) draft.notes.push(imageOnlyNote(service.name, service.image));
        continue;
      }
      const { context, dockerfile, target, args } = service.build;
      const file = path.posix.join(context, dockerfile);
      const facts = await factsOf(workspace, file, args, target, draft.notes);
      if (!facts) continue;
      used.add(file);
      const name = uniqueName(service.name, names);
      draft.subjects.push(
        subjectOf(name, { context, dockerfile, target, args }, file, facts, draft.notes, service),
      );
    }
  }
  for (const file of scan.dockerfiles) {
    if (used.has(file)) continue;
    const facts = await factsOf(workspace, file, {}, undefined, draft.notes);
    if (!facts) continue;
    draft.sources.push(file);
    const build = await contextOf(workspace, file, facts);
    draft.subjects.push(subjectOf(uniqueName(nameOf(file), names), build, file, facts, draft.notes));
  }
  return draft;
}

/** The whole inventory `init` writes. */
export function draftInventory(draft: Draft, schemaRef: string): Record<string, unknown> {
  return {
    $schema: schemaRef,
    description: `Written by \`docker-acceptance init\` from ${draft.sources.join(", ")}; each subject's description says where its settings came from. Every case of every suite is pinned: a pinned case that does not run, or a case that runs unpinned, fails the run (\`docker-acceptance init --update\` pins the cases a newer version adds).`,
    schemaVersion: INVENTORY_SCHEMA_VERSION,
    subjects: draft.subjects,
    suites: allPins(),
  };
}

/** `{ "<suite>": { "required": [every case] } }` for every suite. */
function allPins(): Record<string, { required: string[] }> {
  return Object.fromEntries(
    SUITES.map((s) => [s, { required: [...(CASES_BY_SUITE[s] as readonly string[])] }]),
  );
}

function composeOf(workspace: string, file: string, text: string) {
  try {
    return readCompose(text, file);
  } catch (err) {
    const why = (err as Error).message.split("\n")[0];
    throw new ConfigError(
      [
        {
          path: "",
          message: `not a compose file init can read: ${why}`,
          fix: "fix its YAML (or move it aside) and run init again",
        },
      ],
      path.join(workspace, file),
    );
  }
}

function imageOnlyNote(service: string, image: string): string {
  return `${service}: uses the image ${image}, which this repository does not build, so it is not a subject; to grade it as compose runs it, start the stack and run \`docker-acceptance check --filter label=com.docker.compose.service=${service}\``;
}

async function readBounded(workspace: string, rel: string): Promise<string> {
  const file = resolveInWorkspace(workspace, rel);
  if (!file) throw new Error(`${rel} is not inside the workspace`);
  if ((await stat(file)).size > MAX_FILE_BYTES)
    throw new Error(`${rel} is larger than ${MAX_FILE_BYTES} bytes`);
  return readFile(file, "utf8");
}

async function factsOf(
  workspace: string,
  file: string,
  args: Record<string, string>,
  target: string | undefined,
  notes: string[],
): Promise<ImageFacts | undefined> {
  let text: string;
  try {
    text = await readBounded(workspace, file);
  } catch (err) {
    notes.push(`${file}: not read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return undefined;
  }
  const facts = readImageFacts(text, args, target);
  notes.push(...facts.notes.map((n) => `${file}: ${n}`));
  return facts;
}

/**
 * The build context: the Dockerfile's folder, unless what it COPYs is missing there and present at
 * the repository's root (a docker/Dockerfile built from the root, as many are).
 */
async function contextOf(workspace: string, file: string, facts: ImageFacts) {
  const dir = path.posix.dirname(file);
  const dockerfile = path.posix.basename(file);
  const exists = (rel: string) =>
    stat(path.join(workspace, rel)).then(
      () => true,
      () => false,
    );
  if (dir !== "." && facts.copySources.length > 0) {
    const inDir = await Promise.all(facts.copySources.map((s) => exists(path.posix.join(dir, s))));
    const atRoot = await Promise.all(facts.copySources.map((s) => exists(s)));
    if (inDir.includes(false) && !atRoot.includes(false)) return { context: ".", dockerfile: file };
  }
  return { context: dir, dockerfile };
}

/** `Dockerfile` at the root is "app"; `api/Dockerfile` is "api"; `Dockerfile.worker` adds "-worker". */
function nameOf(file: string): string {
  const dir = path.posix.dirname(file);
  const base = path.posix.basename(file);
  const variant =
    /^(?:dockerfile|containerfile)\.(.+)$/i.exec(base)?.[1] ??
    /^(.+)\.(?:dockerfile|containerfile)$/i.exec(base)?.[1];
  const folder = dir === "." ? "" : path.posix.basename(dir);
  return [folder || (variant ? "" : "app"), variant].filter(Boolean).join("-");
}

function uniqueName(wanted: string, taken: Set<string>): string {
  const clean =
    wanted
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[^a-z0-9]+/, "")
      .slice(0, 56) || "app";
  let name = SUBJECT_NAME.test(clean) ? clean : "app";
  for (let n = 2; taken.has(name); n++) name = `${clean}-${n}`;
  taken.add(name);
  return name;
}

interface Build {
  context: string;
  dockerfile: string;
  target?: string;
  args?: Record<string, string>;
}

function subjectOf(
  name: string,
  build: Build,
  file: string,
  facts: ImageFacts,
  notes: string[],
  service?: ComposeService,
): SubjectJson {
  const said: string[] = [originOf(file, facts, service)];
  const port = portOf(facts, service, said);
  const ready = readinessOf(facts, port, said);
  const user = userOf(name, facts, service, said, notes);
  const roots = writableRootsOf(facts, service, said, notes);
  const capabilities = (service?.capAdd ?? []).filter((c) => launchable({ capabilities: [c] }, notes, name));
  if (facts.shellPid1)
    notes.push(
      `${name}: PID 1 is a shell (shell-form ${facts.shellPid1.value}, ${file}:${facts.shellPid1.line}); if it does not pass SIGTERM on, lifecycle.stop fails: the exec form ${facts.shellPid1.value} ["..."] avoids that`,
    );
  const limits = service && Object.keys(service.limits).length > 0 ? service.limits : undefined;
  const subject: SubjectJson = {
    name,
    description: said.join(" ").slice(0, 2000),
    build: {
      context: build.context,
      ...(build.dockerfile !== "Dockerfile" ? { dockerfile: build.dockerfile } : {}),
      ...(build.target ? { target: build.target } : {}),
      ...(build.args && Object.keys(build.args).length > 0 ? { args: build.args } : {}),
    },
    ...(port ? { port: port.value } : {}),
    readiness: ready.readiness,
    ...(user ? { user } : {}),
    ...(service?.command ? { command: service.command } : {}),
    ...(roots.join() !== DEFAULT_ROOTS.join() ? { writableRoots: roots } : {}),
    ...(capabilities.length > 0 ? { capabilities } : {}),
    ...(limits ? { limits } : {}),
    ...(ready.startupTimeoutMs ? { startupTimeoutMs: ready.startupTimeoutMs } : {}),
  };
  return subject;
}

function originOf(file: string, facts: ImageFacts, service?: ComposeService): string {
  const stage =
    facts.stage.count > 1
      ? `its ${service?.build?.target ? "target" : "last"} stage${facts.stage.name ? ` "${facts.stage.name}"` : ""} (line ${facts.stage.line})`
      : "";
  const from = `${file}${stage ? `, ${stage}` : ""}`;
  return service
    ? `Service "${service.name}" of ${service.file}, built from ${from}.`
    : `Built from ${from}.`;
}

function portOf(facts: ImageFacts, service: ComposeService | undefined, said: string[]) {
  const fromCompose = service?.ports[0];
  if (fromCompose !== undefined) {
    said.push(`Port ${fromCompose}: the service's ports/expose.`);
    return { value: fromCompose };
  }
  const exposed = facts.ports[0];
  if (!exposed) return undefined;
  const more =
    facts.ports.length > 1
      ? ` (also exposed: ${facts.ports
          .slice(1)
          .map((p) => p.value)
          .join(", ")})`
      : "";
  said.push(`Port ${exposed.value}: EXPOSE, line ${exposed.line}${more}.`);
  return exposed;
}

function readinessOf(facts: ImageFacts, port: { value: number } | undefined, said: string[]) {
  const hc = facts.healthcheck;
  if (port) {
    said.push(
      `Ready when TCP ${port.value} accepts a connection${hc ? `; the image's HEALTHCHECK (line ${hc.line}) is run by lifecycle.probes` : ""}.`,
    );
    return { readiness: { type: "tcp" } };
  }
  if (hc) {
    // The engine reports healthy only after the first check, an interval after the start (and
    // may count failures until the start period ends); the wait is capped at the schema's bound,
    // or init would write an inventory that does not load.
    const needed = hc.startPeriodMs + hc.intervalMs + hc.timeoutMs + 10_000;
    const startupTimeoutMs = Math.min(BOUNDS.startupTimeoutMs, Math.max(30_000, needed));
    said.push(`No port is exposed: ready when the image's HEALTHCHECK (line ${hc.line}) reports healthy.`);
    if (needed > BOUNDS.startupTimeoutMs)
      said.push(
        `Its interval, timeout and start period may take ${duration(needed - 10_000)}, past the ${duration(BOUNDS.startupTimeoutMs)} an inventory may wait (startupTimeoutMs): if lifecycle.ready times out, shorten the HEALTHCHECK's --interval or --start-period.`,
      );
    return {
      readiness: { type: "healthcheck" },
      startupTimeoutMs: startupTimeoutMs > 30_000 ? startupTimeoutMs : undefined,
    };
  }
  said.push(
    "No EXPOSE and no HEALTHCHECK: readiness is a 2 s delay; declare `port` and a `readiness` that proves the service answers.",
  );
  return { readiness: { type: "delay", ms: 2000 } };
}

/** "10 min", "15 min 30 s", "45 s": a duration as the description says it. */
function duration(ms: number): string {
  const min = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return [min ? `${min} min` : "", s || !min ? `${s} s` : ""].filter(Boolean).join(" ");
}

const ROOT_USER = /^(root|0)(:(root|0))?$/;

function userOf(
  name: string,
  facts: ImageFacts,
  service: ComposeService | undefined,
  said: string[],
  notes: string[],
): string | undefined {
  if (service?.user) {
    said.push(`Runs as ${service.user}: the service's user.`);
    if (ROOT_USER.test(service.user))
      notes.push(
        `${name}: the service runs as root (user: ${service.user}); containment.user fails until it runs as a non-root user`,
      );
    return service.user;
  }
  const u = facts.user;
  if (u && !ROOT_USER.test(u.value)) {
    said.push(
      `Runs as the image's USER ${u.value} (line ${u.line}); \`user\` is left out so that line is what gets graded.`,
    );
    return undefined;
  }
  const why = u
    ? `USER ${u.value} (line ${u.line}) is root`
    : `there is no USER line, so it runs as the user of ${facts.base ?? "its base image"} (root unless that image sets one)`;
  said.push(`Runs as the image's user: ${why}.`);
  notes.push(
    `${name}: ${why}; containment.user fails for root: add a non-root numeric USER, e.g. USER 10001:10001, after the last step that needs root`,
  );
  return undefined;
}

function writableRootsOf(
  facts: ImageFacts,
  service: ComposeService | undefined,
  said: string[],
  notes: string[],
): string[] {
  const roots = [...DEFAULT_ROOTS];
  const from: string[] = [];
  const add = (paths: string[], where: string) => {
    const fresh = paths.filter((p) => !roots.includes(p) && launchable({ writableRoots: [p] }, notes, p));
    roots.push(...fresh);
    if (fresh.length > 0) from.push(`${fresh.join(", ")} (${where})`);
  };
  for (const v of facts.volumes) add([v.value], `VOLUME, line ${v.line}`);
  add(service?.writable ?? [], "the service's volumes and tmpfs");
  said.push(`Writable: ${DEFAULT_ROOTS.join(", ")}${from.length > 0 ? `, ${from.join(", ")}` : " only"}.`);
  return roots;
}

/** Whether the hardened launch accepts these settings (capabilities it never grants, engine paths). */
function launchable(fields: Record<string, unknown>, notes: string[], who: string): boolean {
  try {
    checkLaunchSpec(subjectSchema.parse({ name: "x", image: "x", ...fields }));
    return true;
  } catch (err) {
    notes.push(`${who}: left out ${JSON.stringify(fields)}: ${(err as Error).message}`);
    return false;
  }
}
