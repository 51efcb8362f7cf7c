// Containment suite entry points (contract used by the pipeline and `check`).
// Evidence first (inspect once + trusted probe containers), judgement second (pure graders).
import type { DockerEngine } from "../../engine/docker.js";
import type { CaseResult } from "../../report/model.js";

/** Default trusted probe: small, multi-arch, pinned by digest. Tests pass a local image instead. */
export const DEFAULT_PROBE_IMAGE =
  "busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";

export interface HostNamespaces {
  /** e.g. { pid: "pid:[4026531836]", net: "net:[...]", ... } measured in the host namespaces. */
  ns: Record<string, string>;
  probeContainerId?: string;
}

export interface ContainmentTarget {
  containerId: string;
  /** Subject name for results (attach mode: the container's name). */
  subject: string;
  writableRoots: string[];
  allowedCapabilities: string[];
  /** Declared network mode; "any" in attach mode when nothing was declared. */
  network: "bridge" | "none" | "any";
}

export interface ContainmentOptions {
  engine: DockerEngine;
  owner: string;
  probeImage: string;
  /** Measured once per run and shared by every target. */
  host: Promise<HostNamespaces>;
  signal?: AbortSignal;
}

export async function measureHostNamespaces(
  _engine: DockerEngine,
  _owner: string,
  _probeImage: string,
  _signal?: AbortSignal,
): Promise<HostNamespaces> {
  throw new Error("containment suite: not implemented yet");
}

/** Collects evidence for one running container, then grades it: one CaseResult per containment case. */
export async function runContainment(
  _target: ContainmentTarget,
  _opts: ContainmentOptions,
): Promise<CaseResult[]> {
  throw new Error("containment suite: not implemented yet");
}
