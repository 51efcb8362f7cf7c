// What a compose file says about each service, as far as an inventory can use it: how it is built
// (context, Dockerfile, target, args), its container ports (`ports`, `expose`), its user, command,
// writable places (named and anonymous volumes, tmpfs), kept capabilities and limits. A service
// with only `image:` is not built from this repository: it is named, not made a subject.
// Compose's `${VAR:-default}` is read for its default; a variable without one is left out, said.
import path from "node:path";
import { parse } from "yaml";
import { words } from "./dockerfile.js";

const MAX_SERVICES = 32;

export interface ComposeService {
  name: string;
  /** The compose file it is declared in. */
  file: string;
  build?: { context: string; dockerfile: string; target?: string; args: Record<string, string> };
  image?: string;
  ports: number[];
  user?: string;
  command?: string[];
  writable: string[];
  capAdd: string[];
  limits: { memory?: string; cpus?: number; pids?: number };
  notes: string[];
}

interface Compose {
  services: ComposeService[];
  notes: string[];
}

type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Reads compose text (at the workspace root, as `file`); a syntax error is thrown as is. */
export function readCompose(text: string, file: string): Compose {
  const doc = parse(text, { maxAliasCount: 50, prettyErrors: true }) as unknown;
  const notes: string[] = [];
  const services = isMap(doc) && isMap(doc.services) ? Object.entries(doc.services) : [];
  if (services.length > MAX_SERVICES) notes.push(`${file}: the first ${MAX_SERVICES} services are read`);
  return {
    services: services.slice(0, MAX_SERVICES).map(([name, s]) => readService(name, file, isMap(s) ? s : {})),
    notes,
  };
}

function readService(name: string, file: string, s: Obj): ComposeService {
  const notes: string[] = [];
  const str = (v: unknown, what: string) => interpolate(v, `${name}.${what}`, notes);
  const out: ComposeService = { name, file, ports: [], writable: [], capAdd: [], limits: {}, notes };
  if (s.build !== undefined) out.build = buildOf(s.build, str, notes);
  if (typeof s.image === "string") out.image = str(s.image, "image");
  for (const p of list(s.ports)) pushPort(out.ports, isMap(p) ? p.target : str(p, "ports"));
  for (const p of list(s.expose)) pushPort(out.ports, str(p, "expose"));
  if (s.user !== undefined) out.user = str(s.user, "user");
  if (Array.isArray(s.command)) out.command = s.command.map(String);
  else if (typeof s.command === "string") out.command = words(s.command);
  for (const v of list(s.volumes)) writableOf(v, str, out);
  for (const t of typeof s.tmpfs === "string" ? [s.tmpfs] : list(s.tmpfs)) {
    const target = str(t, "tmpfs")?.split(":")[0];
    if (target?.startsWith("/")) out.writable.push(target);
  }
  out.capAdd = list(s.cap_add).map((c) => String(c).toUpperCase().replace(/^CAP_/, ""));
  out.limits = limitsOf(s);
  if (s.privileged === true)
    notes.push(`${name}: privileged is never granted (the contract drops every capability)`);
  if (s.environment !== undefined && out.build)
    notes.push(`${name}: environment not copied: add what the service needs to start to "env"`);
  if (s.healthcheck !== undefined && out.build)
    notes.push(
      `${name}: compose's healthcheck is not the image's; the run holds the Dockerfile's HEALTHCHECK only`,
    );
  return out;
}

type Str = (v: unknown, what: string) => string | undefined;

function buildOf(build: unknown, str: Str, notes: string[]): ComposeService["build"] | undefined {
  const b: Obj = isMap(build) ? build : { context: build };
  const context = str(b.context ?? ".", "build.context");
  if (context === undefined) return undefined;
  if (/^[a-z]+:\/\/|^git@|\.git(#|$)/i.test(context)) {
    notes.push(`build context ${context} is remote: only a context in the repository can be a subject`);
    return undefined;
  }
  const normal = path.posix.normalize(context.replaceAll("\\", "/")).replace(/\/$/, "") || ".";
  if (path.posix.isAbsolute(normal) || normal === ".." || normal.startsWith("../")) {
    notes.push(`build context ${context} is outside the repository`);
    return undefined;
  }
  if (b.dockerfile_inline !== undefined) {
    notes.push("an inline Dockerfile (dockerfile_inline) cannot be built from the repository");
    return undefined;
  }
  const args: Record<string, string> = {};
  const rawArgs = b.args;
  if (isMap(rawArgs)) {
    for (const [k, v] of Object.entries(rawArgs)) {
      const value = v === null ? undefined : str(v, `build.args.${k}`);
      if (value !== undefined) args[k] = value;
    }
  } else {
    for (const a of list(rawArgs)) {
      const [k, ...v] = String(a).split("=");
      const value = v.length > 0 ? str(v.join("="), `build.args.${k}`) : undefined;
      if (k && value !== undefined) args[k] = value;
    }
  }
  const target = b.target === undefined ? undefined : str(b.target, "build.target");
  return {
    context: normal,
    dockerfile: str(b.dockerfile ?? "Dockerfile", "build.dockerfile") ?? "Dockerfile",
    ...(target ? { target } : {}),
    args,
  };
}

function writableOf(v: unknown, str: Str, out: ComposeService): void {
  const long = isMap(v) ? v : undefined;
  const short = long ? undefined : str(v, "volumes");
  const parts = short?.split(":") ?? [];
  const [source, target, mode] =
    parts.length === 1 ? [undefined, parts[0], undefined] : [parts[0], parts[1], parts[2]];
  const type = long ? String(long.type ?? "volume") : source && /^[./~]/.test(source) ? "bind" : "volume";
  const to = long ? (typeof long.target === "string" ? long.target : undefined) : target;
  const readOnly = long ? long.read_only === true : (mode ?? "").split(",").includes("ro");
  if (!to?.startsWith("/")) return;
  if (type === "bind")
    out.notes.push(
      `${out.name}: the bind mount at ${to} is not carried over (a run binds nothing from the host)`,
    );
  else if ((type === "volume" || type === "tmpfs") && !readOnly) out.writable.push(to);
}

function limitsOf(s: Obj): ComposeService["limits"] {
  const deploy =
    isMap(s.deploy) && isMap(s.deploy.resources) && isMap(s.deploy.resources.limits)
      ? s.deploy.resources.limits
      : {};
  const memory = s.mem_limit ?? deploy.memory;
  const cpus = Number(s.cpus ?? deploy.cpus);
  const pids = Number(s.pids_limit ?? deploy.pids);
  return {
    ...(typeof memory === "string" || typeof memory === "number"
      ? { memory: String(memory).toLowerCase() }
      : {}),
    ...(Number.isFinite(cpus) && cpus > 0 ? { cpus } : {}),
    ...(Number.isInteger(pids) && pids > 0 ? { pids } : {}),
  };
}

function pushPort(ports: number[], spec: unknown): void {
  if (spec === undefined) return;
  // [HOST_IP:][HOST:]CONTAINER[/PROTOCOL]: the container's side is the last, a range its first.
  const [port, proto = "tcp"] = String(spec).split("/");
  const container = Number(port!.split(":").at(-1)!.split("-")[0]);
  if (
    proto === "tcp" &&
    Number.isInteger(container) &&
    container > 0 &&
    container < 65536 &&
    !ports.includes(container)
  )
    ports.push(container);
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Compose interpolation: `$$` is `$`; `${X:-d}`/`${X-d}` is d; another variable leaves the value out. */
function interpolate(v: unknown, what: string, notes: string[]): string | undefined {
  if (v === null || v === undefined || typeof v === "object") return undefined;
  let unknown: string | undefined;
  const out = String(v).replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced?: string, dflt?: string, bare?: string) => {
      if (whole === "$$") return "$";
      if (dflt !== undefined) return dflt;
      unknown ??= braced ?? bare;
      return "";
    },
  );
  if (unknown === undefined) return out;
  notes.push(`${what}: $${unknown} is set where compose runs, so it was not read`);
  return undefined;
}
