// Evidence from the engine's inspect: the launch settings as the engine recorded them, reduced to
// the fields the graders read, with the engine's defaults they are read against. Recorded inspect
// documents (fixtures) reach here through their provider's view.
import type { ContainerSettings, ContainerView, EngineDefaults } from "../../engine/provider.js";

export interface InspectEvidence extends ContainerSettings {
  /** Memory plus swap as the engine recorded it (-1: unlimited swap); absent when not read. */
  memorySwap?: number;
  /** What the engine grants when not told otherwise (capabilities, masked paths, its own files). */
  defaults: EngineDefaults;
}

/** The graded settings of a container's view (its state, labels and image are not evidence here). */
export function inspectEvidence(view: ContainerView): InspectEvidence {
  const { image: _i, labels: _l, state: _s, init: _n, publishConfig: _p, ...settings } = view;
  return settings;
}

/**
 * `no-new-privileges` parsed as the engine parses it: a bare flag means true; `:v` or `=v` carries
 * a boolean. Undefined when the option is absent (the daemon's default then decides).
 */
export function noNewPrivilegesOption(securityOpt: readonly string[]): boolean | undefined {
  let value: boolean | undefined;
  for (const opt of securityOpt) {
    const m = /^no-new-privileges(?:[:=](.*))?$/.exec(opt.trim());
    if (!m) continue;
    const v = (m[1] ?? "true").trim().toLowerCase();
    value = ["true", "1", "t", "yes"].includes(v)
      ? true
      : ["false", "0", "f", "no"].includes(v)
        ? false
        : value;
  }
  return value;
}

/** `seccomp=unconfined` / `seccomp:unconfined` (either separator, as the engine accepts). */
export function seccompUnconfined(securityOpt: readonly string[]): boolean {
  return securityOpt.some((o) => /^seccomp[:=]unconfined$/.test(o.trim()));
}

/** uid / gid the subject's main process runs as, when the configured user says so numerically. */
export function numericUser(user: string): { uid: number; gid?: number } | undefined {
  const u = user.trim();
  if (u === "" || u === "root") return { uid: 0, gid: 0 };
  const m = /^(\d+|root)(?::(\d+|root))?$/.exec(u);
  if (!m) return undefined;
  const id = (s: string) => (s === "root" ? 0 : Number(s));
  return { uid: id(m[1]!), ...(m[2] !== undefined ? { gid: id(m[2]) } : {}) };
}
