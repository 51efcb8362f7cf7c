// The real-engine test files the Podman leg of .ci/run does not run, each with why: every one of
// them asserts Docker's own verdicts or builder, where Podman's differ for reasons listed in
// tests/helpers/differences.ts (README, Engines). tests/docker/podman-leg.test.ts holds .ci/run's
// Podman list and this one to every test file that needs a real engine.
export const NOT_ON_PODMAN: Record<string, string> = {
  "tests/docker/build.test.ts":
    "BuildKit's features (cache and secret mounts, # syntax= frontends, its step errors): Podman builds with Buildah, the legacy builder here",
  "tests/docker/failsafe.test.ts":
    "asserts BuildKit's failing-step message; Buildah says it its own way (building at STEP ...)",
  "tests/docker/real-images.test.ts":
    "asserts each subject's Docker verdict: on Podman lifecycle.create fails for every subject (settings its API ignores), OCI images have no HEALTHCHECK, and the reproduction line is podman's",
  "tests/docker/trust.test.ts":
    "asserts every case of the hardened subject passes; on Podman the listed differences fail",
  "tests/docker/rootless.test.ts": "its own leg: rootless Podman (DA_ROOTLESS=1)",
  "tests/e2e/action.test.ts":
    "asserts the action's pass verdict, outputs and exit codes for the hardened subject, which fails lifecycle.create on Podman",
  "tests/e2e/modes.test.ts": "the same, for the check, merge and command modes",
};
