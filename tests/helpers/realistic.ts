// The realistic fixture matrix as data (acceptance/fixtures/realistic/realistic.json), shared by
// its real-engine test and the bench.
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./inventory.js";

export const REALISTIC_DIR = path.join(REPO_ROOT, "acceptance/fixtures/realistic");
export const DEBIAN_IMAGE = process.env.DA_DEBIAN_IMAGE ?? "docker-acceptance/debian:bookworm";

export interface RealisticCase {
  name: string;
  image: string;
  why: string;
  subject: Record<string, unknown>;
  fails: string[];
  /** Case IDs, or `suite.*` for every case of a suite. */
  skips?: string[];
  messages?: Record<string, string>;
  /** Where an engine says it otherwise (Podman does not report OOM kills): its patterns win. */
  messagesOn?: Partial<Record<"docker" | "podman", Record<string, string>>>;
  logExcerpts?: Record<string, string>;
  pending?: string;
}

export interface RealisticMatrix {
  images: Record<string, { context: string; target?: string }>;
  cases: RealisticCase[];
}

export function loadRealistic(): RealisticMatrix {
  return JSON.parse(readFileSync(path.join(REALISTIC_DIR, "realistic.json"), "utf8")) as RealisticMatrix;
}

/** A stable local tag per fixture image: rebuilt each run, kept as build cache like the bases. */
export const fixtureTag = (image: string) => `docker-acceptance/realistic-${image}:local`;

/** Every case ID with its exact expected status: the listed fails and skips, pass otherwise. */
export function expectedStatuses(c: RealisticCase, ids: readonly string[]): Record<string, string> {
  const matches = (list: string[] | undefined, id: string) =>
    (list ?? []).some((x) => x === id || (x.endsWith(".*") && id.startsWith(x.slice(0, -1))));
  return Object.fromEntries(
    ids.map((id) => [id, matches(c.fails, id) ? "fail" : matches(c.skips, id) ? "skip" : "pass"]),
  );
}
