// The suites' runtime seam. The lifecycle suite drives each subject's life (build, create, ready,
// ..., stop, cleanup); every other suite observes the subject while the lifecycle holds it running,
// between lifecycle.limits and lifecycle.stop. An observing suite starts once per run (what all
// its subjects share, such as containment's host reference) and gives each subject an Observer.
// The pipeline holds one entry per registered suite (SUITE_RUNTIMES in src/pipeline-run.ts): a suite
// without one does not compile.

import type { SuiteName } from "../cases/index.js";
import type { ContainerView, Engine } from "../engine/provider.js";
import type { Subject } from "../inventory/schema.js";
import type { CaseResult } from "../report/model.js";

/** What a suite's run-wide start is given. */
export interface SuiteRun {
  engine: Engine;
  /** This run's owner label value: everything a suite creates carries it. */
  owner: string;
  /** The trusted probe image, already on the engine. */
  probeImage: string;
  signal: AbortSignal;
}

/** One subject's observation by one suite. */
export interface Observer {
  suite: SuiteName;
  /**
   * Every case of the suite, measured on the running container (the inspect that saw it ready is
   * handed on). What it leaves under way (its probes' removals) it adds to `settling`: the
   * lifecycle goes on to stop the subject meanwhile and awaits them before its cleanup.
   */
  observe(containerId: string, inspect?: ContainerView, settling?: Promise<void>[]): Promise<CaseResult[]>;
}

/** What an observing suite does in a run. */
export interface ObservingSuite {
  /** Once per run, before any subject is observed; returns each subject's observer. */
  start(run: SuiteRun): (subject: Subject) => Observer;
}

/** How a registered suite runs. */
export type SuiteRuntime =
  | { role: "drives" }
  | {
      role: "observes";
      /**
       * Its code, loaded once the run has time for it (while the engine works on the first build)
       * or needs it: none of it delays the run's first build request (issue #29).
       */
      load(): Promise<ObservingSuite>;
    };
