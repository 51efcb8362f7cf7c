// What we asked for is what we got: after a subject is created, its hardened settings are read
// back from the engine's view of it. An engine may accept a setting and not apply it (Podman's
// Docker-compatible API ignores the cgroup namespace and IPC "none", and mounts writable /run and
// /var/tmp under a read-only root); such a deviation is named, never trusted. Pure.
import type { ContainerView, HardenedSetting, LaunchSpec } from "./provider.js";

interface Deviation {
  setting: HardenedSetting;
  asked: string;
  got: string;
}

const str = (v: unknown) =>
  v === undefined || v === null || v === "" ? "(engine default)" : JSON.stringify(v);
const normCap = (c: string) => c.toUpperCase().replace(/^CAP_/, "");

/** Every hardened setting in `asked` that the engine's view does not show applied. */
export function readBack(asked: LaunchSpec, got: ContainerView): Deviation[] {
  const out: Deviation[] = [];
  const differ = (setting: HardenedSetting, ok: boolean, a: unknown, g: unknown) => {
    if (!ok) out.push({ setting, asked: str(a), got: str(g) });
  };
  const ns = asked.namespaces;
  if (asked.readOnlyRoot) differ("read-only root", got.readonlyRootfs, true, got.readonlyRootfs);
  const askedAdd = asked.capabilities.add.map(normCap);
  const gotAdd = got.capAdd.map(normCap);
  differ(
    "added capabilities",
    gotAdd.every((c) => askedAdd.includes(c)),
    asked.capabilities.add,
    got.capAdd,
  );
  const nnp = got.security.noNewPrivileges;
  if (asked.noNewPrivileges) differ("no-new-privileges", nnp?.value === true, true, nnp?.value);
  if (ns.cgroup) differ("cgroup namespace", got.modes.cgroup === ns.cgroup, ns.cgroup, got.modes.cgroup);
  if (ns.ipc === "none") differ("IPC namespace", got.modes.ipc === "none", ns.ipc, got.modes.ipc);
  if (ns.ipc === "private")
    differ("IPC namespace", ["private", "shareable"].includes(got.modes.ipc), ns.ipc, got.modes.ipc);
  if (!ns.pid || ns.pid === "private")
    differ("PID namespace", !got.modes.pid || got.modes.pid === "private", "private", got.modes.pid);
  differ("privileged", !got.privileged, false, got.privileged);
  if (asked.init) differ("init", got.init, true, got.init);
  const tmpfs = tmpfsDeviation(Object.keys(asked.tmpfs), Object.keys(got.tmpfs));
  if (tmpfs) out.push(tmpfs);
  if (ns.net === "none") differ("network", got.modes.net === "none", ns.net, got.modes.net);
  const askedIps = asked.publish.map((p) => p.hostIp);
  const gotIps = Object.values(got.publishConfig)
    .flat()
    .map((b) => b.address);
  if (askedIps.length && askedIps.every((ip) => ip === "127.0.0.1"))
    differ(
      "published ports",
      gotIps.every((ip) => ip === "127.0.0.1"),
      "127.0.0.1",
      gotIps.join(", "),
    );
  return out;
}

function tmpfsDeviation(asked: string[], got: string[]): Deviation | undefined {
  const extra = got.filter((p) => !asked.includes(p)).sort();
  const missing = asked.filter((p) => !got.includes(p)).sort();
  if (!extra.length && !missing.length) return undefined;
  return {
    setting: "tmpfs mounts",
    asked: [...asked].sort().join(", ") || "(none)",
    got: [
      extra.length ? `added ${extra.join(", ")}` : "",
      missing.length ? `missing ${missing.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("; "),
  };
}
