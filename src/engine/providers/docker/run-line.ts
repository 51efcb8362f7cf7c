// A launch as one `<cli> run` line a person can paste (the docker CLI's flags, which Podman's CLI
// shares): the same image, user, init, read-only root, tmpfs mounts, capabilities, security
// options, namespaces, limits and ports. Environment variables appear by name only (`-e NAME`
// takes the value from the caller's environment), so no value is ever printed. Every word is
// shell-quoted.
import type { LaunchSpec, ReproduceImage } from "../../provider.js";
import { shellQuote } from "../../shell.js";

/** The image part: a prebuilt reference, or the build that makes it, inline. */
function imageWords(cli: string, image: ReproduceImage): string {
  if ("ref" in image) return shellQuote(image.ref);
  const b = image.build;
  const ctx = b.context.replaceAll("\\", "/");
  const words = [
    cli,
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

export function runLine(cli: string, spec: LaunchSpec, image: ReproduceImage): string {
  const flags: string[] = [cli, "run", "--rm"];
  const add = (...words: (string | number)[]) => flags.push(...words.map((w) => shellQuote(String(w))));
  if (spec.user !== undefined) add("--user", spec.user);
  if (spec.init) add("--init");
  if (spec.readOnlyRoot) add("--read-only");
  for (const [dest, opts] of Object.entries(spec.tmpfs)) add("--tmpfs", `${dest}:${opts}`);
  for (const c of spec.capabilities.drop) add("--cap-drop", c);
  for (const c of spec.capabilities.add) add("--cap-add", c);
  if (spec.noNewPrivileges) add("--security-opt", "no-new-privileges:true");
  const ns = spec.namespaces;
  if (ns.ipc) add("--ipc", ns.ipc);
  if (ns.cgroup) add("--cgroupns", ns.cgroup);
  const l = spec.limits;
  if (l.memoryBytes)
    add("--memory", `${l.memoryBytes}b`, "--memory-swap", `${l.memorySwapBytes ?? l.memoryBytes}b`);
  if (l.pids) add("--pids-limit", l.pids);
  if (l.nanoCpus) add("--cpus", l.nanoCpus / 1e9);
  if (ns.net && ns.net !== "bridge") add("--network", ns.net);
  for (const p of spec.publish) add("-p", `${p.hostIp ? `${p.hostIp}:` : ""}:${p.port}`);
  if (spec.stop) add("--stop-timeout", spec.stop.timeoutSec);
  for (const name of Object.keys(spec.env)) add("-e", name);
  const command = (spec.command ?? []).map(shellQuote).join(" ");
  return `${flags.join(" ")} ${imageWords(cli, image)}${command ? ` ${command}` : ""}`;
}
