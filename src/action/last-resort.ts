// What escapes every handler (a rejection nobody awaited, an exception thrown in a callback) ends
// the step with one readable line instead of Node's crash report, which quotes the source line it
// died on: in the minified bundle a line of some 90 KB, the error itself lost at its end. main
// fails the step as an internal error (exit code 3; the post step still sweeps what it owned);
// post only warns, as it does for every failure of its own (it never fails the job).
import * as core from "@actions/core";
import { redact } from "../errors.js";

/** Installs the last resort for `step`; called first thing by src/main.ts and src/post.ts. */
export function installLastResort(step: "main" | "post"): void {
  const end = (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    // Three frames: where it happened, without quoting a line of the bundle.
    const frames = (e.stack ?? "")
      .split("\n")
      .slice(1, 4)
      .map((f) => f.trim());
    // One line (no line of it can start a workflow command), the legacy `##[` defused as
    // ./log.ts's logSafe does; not imported from there, which would load the report model into
    // the post step's start-up.
    const line = redact(`docker-acceptance ${step}: internal error: ${e.name}: ${e.message}`)
      .replace(/\s+/g, " ")
      .replace(/##\[/g, "#\u200b#[");
    const text = `${line.slice(0, 1000)}${frames.length ? ` (${frames.join(" < ")})` : ""}`;
    if (step === "main") core.setFailed(text);
    else core.warning(text, { title: "docker-acceptance post step failed" });
    process.exit(step === "main" ? 3 : 0);
  };
  process.on("uncaughtException", end);
  process.on("unhandledRejection", end);
}
