// The subject's user as numbers, for the tmpfs ownership of its writable roots. A user given by
// name ("redis", "app:app") only means something in the image's own /etc/passwd and /etc/group,
// which are read from the created container (the engine resolves names the same way at start).

import type { Engine, PathStat } from "../../engine/provider.js";

interface NumericUser {
  uid: number;
  gid?: number;
}

/** "65532:65532" or "65532" as numbers; undefined when the user part is a name. */
export function numericIds(user: string): NumericUser | undefined {
  const [u, g] = user.split(":");
  if (!u || !/^\d+$/.test(u)) return undefined;
  return { uid: Number(u), ...(g && /^\d+$/.test(g) ? { gid: Number(g) } : {}) };
}

/** Looks `name` up in passwd-format text: [uid, primary gid]. */
export function lookupPasswd(text: string, name: string): [number, number] | undefined {
  for (const line of text.split("\n")) {
    const f = line.split(":");
    if (f[0] === name && /^\d+$/.test(f[2] ?? "") && /^\d+$/.test(f[3] ?? ""))
      return [Number(f[2]), Number(f[3])];
  }
  return undefined;
}

/** Looks a group name up in group-format text. */
export function lookupGroup(text: string, name: string): number | undefined {
  for (const line of text.split("\n")) {
    const f = line.split(":");
    if (f[0] === name && /^\d+$/.test(f[2] ?? "")) return Number(f[2]);
  }
  return undefined;
}

/** The user's numeric ids, reading the container's passwd and group files for names. */
export async function resolveUser(
  engine: Engine,
  containerId: string,
  user: string,
): Promise<NumericUser | undefined> {
  const direct = numericIds(user);
  if (direct) return direct;
  const [name, group] = user.split(":");
  const passwd = (await engine.readFile(containerId, "/etc/passwd"))?.toString("utf8");
  const entry = passwd === undefined ? undefined : lookupPasswd(passwd, name!);
  if (!entry) return undefined;
  if (!group) return { uid: entry[0], gid: entry[1] };
  if (/^\d+$/.test(group)) return { uid: entry[0], gid: Number(group) };
  const groups = (await engine.readFile(containerId, "/etc/group"))?.toString("utf8");
  const gid = groups === undefined ? undefined : lookupGroup(groups, group);
  return { uid: entry[0], ...(gid !== undefined ? { gid } : {}) };
}

/**
 * Whether writable roots at `roots` need the user to own them. A tmpfs over a directory the image
 * has keeps that directory's mode (the runtime sets it), so one that others may write (/tmp, 1777)
 * is the user's to write whoever owns it, and a root the image lacks gets ours (1777): only a
 * directory others cannot write, or a link (resolved where the runtime mounts it), needs the user's
 * own ids. Asking is cheap (a stat each); reading /etc/passwd and creating again is not.
 */
export async function ownershipMatters(
  engine: Engine,
  containerId: string,
  roots: string[],
): Promise<boolean> {
  const unknown: PathStat = { type: "other", mode: 0 };
  const stats = await Promise.all(
    roots.map((root) => engine.statPath(containerId, root).catch(() => unknown)),
  );
  return stats.some((stat) => stat !== undefined && !(stat.type === "directory" && stat.mode & 0o002));
}
