// What the job log says while a subject takes long: during a build, the readiness wait and the
// stop, a line at least every 15 s naming what runs and for how long, by the clock (a quiet
// BuildKit step prints nothing for minutes, so counting output lines says nothing then).
import type { BuildStepEvent } from "../../engine/provider.js";
import type { Logger } from "../../log.js";
import { terminalSafe } from "../../report/text.js";

const PROGRESS_EVERY_MS = 15_000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * A timer that writes `say(elapsed)` when nothing was written for `everyMs`; `said()` marks a line
 * written by its owner (a build step's start), so the log gets one line per interval, not two.
 */
class Heartbeat {
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly say: (elapsedMs: number) => string,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {
    this.said();
  }

  said(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.log.info(this.say(Date.now() - this.started));
      this.said();
    }, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** `work` with a heartbeat: "  ready: waiting until GET /health answers 200 (30 s of 120 s)". */
export async function withHeartbeat<T>(
  log: Logger,
  say: (elapsedMs: number) => string,
  work: () => Promise<T>,
): Promise<T> {
  const beat = new Heartbeat(log, say);
  try {
    return await work();
  } finally {
    beat.stop();
  }
}

/**
 * A build's progress: each step's start is written as it starts, and while steps run the
 * heartbeat names the ones still running and how long each has run.
 */
export class BuildProgress {
  private readonly running = new Map<string, number>();
  private readonly beat: Heartbeat;

  constructor(private readonly log: Logger) {
    this.beat = new Heartbeat(log, (elapsed) => this.line(elapsed));
  }

  step(event: BuildStepEvent): void {
    if (event.state === "running") {
      this.running.set(event.name, Date.now());
      this.log.info(`  build: ${terminalSafe(event.name, 200)}`);
      this.beat.said();
    } else this.running.delete(event.name);
  }

  /** The steps still running, the latest three: where a build that timed out stood. */
  runningSteps(): string[] {
    return [...this.running.keys()].slice(-3);
  }

  private line(elapsedMs: number): string {
    const now = Date.now();
    const steps = [...this.running]
      .slice(-3)
      .map(([name, at]) => `${terminalSafe(name, 120)} (${seconds(now - at)})`);
    const what = steps.length
      ? `running ${steps.join(", ")}`
      : "working (no step running: exporting or waiting for the engine)";
    return `  build: ${what}; ${seconds(elapsedMs)} in all`;
  }

  stop(): void {
    this.beat.stop();
  }
}

/** A failing step's last output lines, each terminal-safe, as one block written at once. */
export function outputBlock(title: string, text: string, maxLines: number): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const shown = lines.slice(-maxLines).map((l) => `      | ${terminalSafe(l, 200)}`);
  const more =
    lines.length > shown.length
      ? [`      | (${lines.length - shown.length} earlier line(s) in the report)`]
      : [];
  return [`      ${title}:`, ...more, ...shown].join("\n");
}
