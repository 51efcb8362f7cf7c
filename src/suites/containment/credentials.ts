// Which uid:gid and capabilities the subject probe runs as. The bound comes from the subject's own
// launch (its inspect: the capabilities the launch grants) under the probe ceiling
// (src/engine/trusted-probe.ts), never from a report: a measurement of the subject's processes can
// only narrow it. A forged or mistaken "all capabilities" line gives a probe nothing more.
import { underCeiling } from "../../engine/trusted-probe.js";
import { CAP_NAMES, decodeCaps, normCap, type ProcessEvidence } from "./evidence.js";
import { type InspectEvidence, numericUser } from "./inspect.js";

export interface Credentials {
  uid: number;
  gid: number;
  caps: string[];
}

/** What the launch grants the subject's processes: the engine's defaults minus drops plus adds; all when privileged. */
export function grantedCapabilities(inspect: InspectEvidence): string[] {
  if (inspect.privileged) return [...CAP_NAMES];
  const drop = inspect.capDrop.map(normCap);
  const add = inspect.capAdd.map(normCap);
  if (add.includes("ALL")) return [...CAP_NAMES];
  const base = drop.includes("ALL")
    ? []
    : inspect.defaults.capabilities.map(normCap).filter((c) => !drop.includes(c));
  return [...new Set([...base, ...add])];
}

/** The most the subject probe may hold: what the launch grants, under the probe ceiling. */
export function capabilityBound(inspect: InspectEvidence): string[] {
  return underCeiling(grantedCapabilities(inspect));
}

/**
 * The first probe's credentials, from the launch alone: its numeric uid:gid and the bound. A user
 * given by name (or a uid without a gid) is left to a measurement: undefined.
 */
export function launchCredentials(inspect: InspectEvidence): Credentials | undefined {
  const ids = numericUser(inspect.user);
  if (!ids || ids.gid === undefined) return undefined;
  return { uid: ids.uid, gid: ids.gid, caps: capabilityBound(inspect) };
}

/**
 * The credentials the measured processes call for: the uid:gid most of them run as (a user given
 * by name, an entrypoint that drops from root to another user, leave the configured one behind)
 * and the union of their permitted sets, within the bound. A process the kernel shows holding more
 * than the bound (above the ceiling) is read only as far as a probe within it can.
 */
export function measuredCredentials(
  processes: readonly Pick<ProcessEvidence, "status">[],
  inspect: InspectEvidence,
): Credentials | undefined {
  const ids = commonIds(processes) ?? numericUser(inspect.user);
  if (!ids || ids.gid === undefined) return undefined;
  const bound = new Set(capabilityBound(inspect));
  const held = new Set(processes.flatMap((p) => decodeCaps(p.status.CapPrm ?? "")));
  return { uid: ids.uid, gid: ids.gid, caps: [...held].filter((c) => bound.has(c)) };
}

export function sameCredentials(first: Credentials, second: Credentials): boolean {
  const caps = (c: Credentials) => [...c.caps].sort().join(",");
  return first.uid === second.uid && first.gid === second.gid && caps(first) === caps(second);
}

/** The effective uid:gid most of the subject's processes run as (ties: the earliest process's). */
function commonIds(
  processes: readonly Pick<ProcessEvidence, "status">[],
): { uid: number; gid: number } | undefined {
  const counts = new Map<string, number>();
  for (const p of processes) {
    const uid = Number(p.status.Uid?.split(/\s+/)[1]);
    const gid = Number(p.status.Gid?.split(/\s+/)[1]);
    if (!Number.isInteger(uid) || !Number.isInteger(gid)) continue;
    const key = `${uid}:${gid}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [key, n] of counts) if (best === undefined || n > counts.get(best)!) best = key;
  if (best === undefined) return undefined;
  const [uid, gid] = best.split(":").map(Number) as [number, number];
  return { uid, gid };
}
