// The trusted probe's default image, apart from the suite: a run makes sure of it before the
// suite's code is loaded (src/pipeline.ts), so naming it must not load the suite.

/** Default trusted probe: small, multi-arch, pinned by digest. Tests pass a local image instead. */
export const DEFAULT_PROBE_IMAGE =
  "busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";
