// Shared by the CLI commands: output formats, rendering and exit codes.
import type { Report } from "../report/model.js";
import { renderText } from "../report/text.js";

type Format = "text" | "markdown" | "json";

export async function renderReport(report: Report, format: Format): Promise<string> {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  if (format === "markdown") {
    const { renderMarkdown } = await import("../report/markdown.js");
    return renderMarkdown(report, { target: "file" });
  }
  return renderText(report);
}

/** 0 pass or warn, 1 fail, 3 engine or internal error (README, The CLI). */
export function exitCodeFor(report: Report): number {
  return report.verdict === "error" ? 3 : report.verdict === "fail" ? 1 : 0;
}

/**
 * SIGINT and SIGTERM abort the run; the pipeline then cleans up (bounded) and the door exits.
 * The runner sends SIGINT, then SIGTERM 7.5 s later: the second signal changes nothing but a
 * hard exit deadline, so cleanup is never interrupted by our own handler.
 */
export function abortOnSignals(hardExitMs = 9000): {
  signal: AbortSignal;
  dispose: () => void;
  received: () => string | undefined;
} {
  const controller = new AbortController();
  let first: string | undefined;
  const handler = (sig: NodeJS.Signals) => {
    if (!first) {
      first = sig;
      process.stderr.write(`docker-acceptance: ${sig} received, cleaning up what this run owns…\n`);
      controller.abort(sig);
      setTimeout(() => process.exit(signalExitCode(sig)), hardExitMs).unref();
    }
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    received: () => first,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

export function signalExitCode(sig: string): number {
  return sig === "SIGINT" ? 130 : 143;
}
