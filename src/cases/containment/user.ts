import type { ContainmentCaseDef } from "../types.js";

export const USER = {
  id: "containment.user",
  rank: 10,
  title: "Runs as a non-root user",
  measures:
    'uid, gid and supplementary groups of every subject process (`/proc/<pid>/status`): any 0 fails, also a root process next to a non-root one; the configured user `""`, `root`, `0`, `0:*` fails from inspect alone',
  standards: { pss: "restricted: Running as Non-root (user)", cis: "4.1" },
  remediation: {
    inventory:
      "Add `USER 65532:65532` (any non-zero uid and gid) to the Dockerfile after the last RUN, or launch with `--user 65532:65532` (inventory: subjects[].user); never root, 0, 0:0 or empty.",
    cli: "Add `USER 65532:65532` (any non-zero uid and gid) to the image's Dockerfile, or start it with `--user 65532:65532`; never root, 0, 0:0 or empty.",
    compose:
      'Add `USER 65532:65532` (any non-zero uid and gid) to the image\'s Dockerfile, or set `user: "65532:65532"` on the service; never root, 0, 0:0 or empty.',
  },
} as const satisfies ContainmentCaseDef;
