// What we asked for is what we got: after a subject is created, its hardened settings are read
// back from the engine's inspect document. An engine may accept a setting and not apply it (Podman's
// Docker-compatible API ignores CgroupnsMode and IpcMode "none", and mounts writable /run and
// /var/tmp under a read-only root); such a deviation is named, never trusted. Pure.
import type { ContainerInspect, CreateOptions } from "./providers/docker/engine.js";

/** The settings read back; their names are the create options' own, as users see them in inspect. */
export type HardenedSetting =
  | "ReadonlyRootfs"
  | "CapAdd"
  | "SecurityOpt"
  | "CgroupnsMode"
  | "IpcMode"
  | "PidMode"
  | "Privileged"
  | "Init"
  | "Tmpfs"
  | "NetworkMode"
  | "PortBindings";

export interface Deviation {
  setting: HardenedSetting;
  asked: string;
  got: string;
}

type HostConfig = NonNullable<CreateOptions["HostConfig"]> & Record<string, unknown>;

const str = (v: unknown) =>
  v === undefined || v === null || v === "" ? "(engine default)" : JSON.stringify(v);
const normCap = (c: string) => c.toUpperCase().replace(/^CAP_/, "");
const nnp = (opts: unknown) =>
  Array.isArray(opts) && opts.some((o) => /^no-new-privileges(?:[:=]true)?$/.test(String(o)));

/** Every hardened setting in `asked` that the inspect document does not show applied. */
export function readBack(askedHost: CreateOptions["HostConfig"], inspect: ContainerInspect): Deviation[] {
  const asked = (askedHost ?? {}) as HostConfig;
  const got = (inspect.HostConfig ?? {}) as HostConfig;
  const out: Deviation[] = [];
  const differ = (
    setting: HardenedSetting,
    ok: boolean,
    a: unknown = asked[setting],
    g: unknown = got[setting],
  ) => {
    if (!ok) out.push({ setting, asked: str(a), got: str(g) });
  };
  if (asked.ReadonlyRootfs) differ("ReadonlyRootfs", got.ReadonlyRootfs === true);
  const gotAdd = ((got.CapAdd as string[] | null) ?? []).map(normCap);
  const askedAdd = ((asked.CapAdd as string[] | undefined) ?? []).map(normCap);
  differ(
    "CapAdd",
    gotAdd.every((c) => askedAdd.includes(c)),
  );
  if (nnp(asked.SecurityOpt)) differ("SecurityOpt", nnp(got.SecurityOpt));
  if (asked.CgroupnsMode) differ("CgroupnsMode", got.CgroupnsMode === asked.CgroupnsMode);
  if (asked.IpcMode === "none") differ("IpcMode", got.IpcMode === "none");
  if (asked.IpcMode === "private") differ("IpcMode", ["private", "shareable"].includes(String(got.IpcMode)));
  if (!asked.PidMode) differ("PidMode", !got.PidMode || got.PidMode === "private", "private");
  differ("Privileged", got.Privileged !== true, false);
  if (asked.Init === true) differ("Init", got.Init === true);
  const askedTmpfs = Object.keys((asked.Tmpfs as Record<string, string>) ?? {}).sort();
  const gotTmpfs = Object.keys((got.Tmpfs as Record<string, string>) ?? {}).sort();
  const extra = gotTmpfs.filter((p) => !askedTmpfs.includes(p));
  const missing = askedTmpfs.filter((p) => !gotTmpfs.includes(p));
  if (extra.length || missing.length)
    out.push({
      setting: "Tmpfs",
      asked: askedTmpfs.join(", ") || "(none)",
      got: [
        extra.length ? `added ${extra.join(", ")}` : "",
        missing.length ? `missing ${missing.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    });
  if (asked.NetworkMode === "none") differ("NetworkMode", got.NetworkMode === "none");
  const hostIps = Object.values((got.PortBindings as Record<string, { HostIp?: string }[] | null>) ?? {})
    .flatMap((b) => b ?? [])
    .map((b) => b.HostIp ?? "");
  const askedIps = Object.values((asked.PortBindings as Record<string, { HostIp?: string }[]>) ?? {})
    .flatMap((b) => b)
    .map((b) => b.HostIp ?? "");
  if (askedIps.length && askedIps.every((ip) => ip === "127.0.0.1"))
    differ(
      "PortBindings",
      hostIps.every((ip) => ip === "127.0.0.1"),
      "127.0.0.1",
      hostIps.join(", "),
    );
  return out;
}
