// The lifecycle suite's cases, each defined once, as plain data (see ../ids.ts). The cases run in
// this order; their code is in this folder (run.ts drives them) and each says its own fix, which
// depends on what happened.
import type { Suite } from "../case-def.js";

export const LIFECYCLE_SUITE = {
  name: "lifecycle",
  title: "Lifecycle",
  purpose:
    "the subject builds, starts hardened, becomes ready, answers its probes, lives within its limits, stops on its stop signal and leaves nothing behind",
  cases: [
    {
      id: "lifecycle.build",
      title: "Builds",
      measures:
        "the image builds from its Dockerfile (BuildKit, or the legacy builder where chosen), or the prebuilt image matches its pinned `imageId`; a failing step is named by its Dockerfile line",
    },
    {
      id: "lifecycle.create",
      title: "Starts hardened",
      measures:
        "the container is created with the hardened launch (capabilities dropped, no-new-privileges, read-only root, limits, loopback ports, the allotted writable roots) and every hardened setting reads back as applied; the evidence says where each runtime field of the image's configuration came from (USER, ENTRYPOINT, CMD, WORKDIR, ENV names, STOPSIGNAL, HEALTHCHECK, EXPOSE, VOLUME: image, inventory or engine default)",
    },
    {
      id: "lifecycle.ready",
      title: "Becomes ready",
      measures:
        "the subject becomes ready by its declared strategy (HTTP, TCP, HEALTHCHECK, log line, delay) within its time-out, without exiting or restarting first",
    },
    {
      id: "lifecycle.probes",
      title: "Answers its probes",
      measures:
        "the declared probes (HTTP status and body, TCP, log line, HEALTHCHECK) hold once it is ready, and so does the image's own HEALTHCHECK",
    },
    {
      id: "lifecycle.limits",
      title: "Runs within its limits",
      measures: "the memory, pids and CPU limits read back after start equal the requested ones",
    },
    {
      id: "lifecycle.stop",
      title: "Stops on its stop signal",
      measures:
        "its PID 1 exits on the stop signal (the image's `STOPSIGNAL`, else SIGTERM, as every engine's stop and compose send it) within `stopTimeoutMs` (not killed after the grace), and it did not die before it was asked to stop",
    },
    {
      id: "lifecycle.cleanup",
      title: "Leaves nothing behind",
      measures:
        "every container and image the run owns is removed, proved by listing the owned objects again",
    },
  ],
} as const satisfies Suite;
