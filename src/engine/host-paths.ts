// Host paths that belong to container engines, whichever engine runs this check: a subject that
// binds one of them can reach an engine (and so the host), so the graders treat them as sensitive.

/** The control sockets of the engines and builders a host may run. */
export const ENGINE_SOCKET = /(^|\/)(docker|containerd|podman|crio|cri-dockerd|buildkitd)\.sock(\.ttrpc)?$/;

/**
 * Engines' default data roots, whichever engine runs the subject (a subject's own engine's root is
 * read from its view too): Docker's, Podman's, Buildah's and CRI-O's, containerd's and BuildKit's.
 */
export const ENGINE_DATA_ROOTS = [
  "/var/lib/docker",
  "/var/lib/containers",
  "/var/lib/containerd",
  "/var/lib/buildkit",
];
