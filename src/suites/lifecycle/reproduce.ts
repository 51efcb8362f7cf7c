// The launch as one `docker run` line a person can paste: the same image, user, init, read-only
// root, tmpfs mounts, capabilities, security options, limits and ports. Environment variables
// appear by name only (`-e NAME` takes the value from the caller's environment), so no value from
// the inventory is ever printed. Every word is shell-quoted.
import type { CreateOptions } from "../../engine/providers/docker/engine.js";
import type { Subject } from "../../inventory/schema.js";

/** POSIX shell quoting: bare when only safe characters, else single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

/** The image part: a prebuilt reference, or the build that makes it, inline. */
function imageWords(subject: Subject): string {
  if (subject.image) return shellQuote(subject.image);
  const b = subject.build!;
  const ctx = b.context.replaceAll("\\", "/");
  const words = [
    "docker",
    "build",
    "-q",
    "-f",
    `${ctx.replace(/\/$/, "")}/${b.dockerfile}`,
    ...(b.target ? ["--target", b.target] : []),
    ...Object.entries(b.args).flatMap(([k, v]) => ["--build-arg", `${k}=${v}`]),
    ctx,
  ];
  return `"$(${words.map(shellQuote).join(" ")})"`;
}

export function dockerRunLine(subject: Subject, options: CreateOptions): string {
  const hc = options.HostConfig ?? {};
  const flags: string[] = ["docker", "run", "--rm"];
  const add = (...words: (string | number)[]) => flags.push(...words.map((w) => shellQuote(String(w))));
  if (options.User) add("--user", options.User);
  if (hc.Init) add("--init");
  if (hc.ReadonlyRootfs) add("--read-only");
  for (const [dest, opts] of Object.entries(hc.Tmpfs ?? {})) add("--tmpfs", `${dest}:${opts}`);
  for (const c of hc.CapDrop ?? []) add("--cap-drop", c);
  for (const c of hc.CapAdd ?? []) add("--cap-add", c);
  for (const o of hc.SecurityOpt ?? []) add("--security-opt", o);
  const ipc = hc.IpcMode;
  if (ipc) add("--ipc", ipc);
  const cgroupns = (hc as { CgroupnsMode?: string }).CgroupnsMode;
  if (cgroupns) add("--cgroupns", cgroupns);
  if (hc.Memory) add("--memory", `${hc.Memory}b`, "--memory-swap", `${hc.MemorySwap ?? hc.Memory}b`);
  if (hc.PidsLimit) add("--pids-limit", hc.PidsLimit);
  if (hc.NanoCpus) add("--cpus", hc.NanoCpus / 1e9);
  if (hc.NetworkMode && hc.NetworkMode !== "bridge") add("--network", hc.NetworkMode);
  for (const [port, bindings] of Object.entries(hc.PortBindings ?? {}) as [string, { HostIp?: string }[]][])
    for (const b of bindings) add("-p", `${b.HostIp ? `${b.HostIp}:` : ""}:${port.replace(/\/tcp$/, "")}`);
  if (options.StopTimeout !== undefined) add("--stop-timeout", options.StopTimeout);
  for (const e of options.Env ?? []) add("-e", e.split("=")[0]!);
  const command = (options.Cmd ?? []).map(shellQuote).join(" ");
  return `${flags.join(" ")} ${imageWords(subject)}${command ? ` ${command}` : ""}`;
}
