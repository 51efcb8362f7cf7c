// Image removal through Podman's own API. Its compatible removal ignores `noprune` before 4.6
// (containers/podman#18278): removing an image there also removes each untagged parent it leaves
// childless, someone else's included. Its own batch removal honours `noprune` from 4.3 on
// (containers/podman#15093, `podman rmi --no-prune`), so only the image asked for goes.
import { EngineError } from "../../../errors.js";
import type { EngineRequest } from "../docker/dialect.js";
import { LIBPOD_API } from "./libpod.js";

/** The first release whose own API removes an image without its untagged parents. */
const NOPRUNE_FROM: readonly [number, number] = [4, 3];

/** Whether this Podman release removes an image's untagged, childless parents with it whatever is asked. */
export function prunesParents(version: string): boolean {
  const [major = 0, minor = 0] = version.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  return major < NOPRUNE_FROM[0] || (major === NOPRUNE_FROM[0] && minor < NOPRUNE_FROM[1]);
}

interface BatchAnswer {
  ExitCode?: number;
  Errors?: string[] | null;
}

/**
 * The status each of podman-rmi(1)'s exit codes means in the Docker API's terms: 1, no such image
 * (404); 2, in use by a container (409); anything else, the engine's own failure (500). The batch
 * endpoint answers 200 either way and says which in `ExitCode`: the engine's code decides, never
 * the words of its errors.
 */
const STATUS_OF_EXIT: Record<number, number> = { 1: 404, 2: 409 };

/** Removes one image by tag or ID, never forced and never its parents (see above). */
export async function removeImage(ref: string, request: EngineRequest, signal: AbortSignal): Promise<void> {
  const answer = (await request(
    "DELETE",
    `${LIBPOD_API}/images/remove?`,
    { images: ref, noprune: true },
    signal,
  )) as BatchAnswer | undefined;
  const code = answer?.ExitCode ?? 0;
  if (code === 0 && (answer?.Errors ?? []).length === 0) return;
  const why = (answer?.Errors ?? []).join("; ") || `exit code ${code}`;
  throw new EngineError(`remove image ${ref}: ${why}`, "engine", STATUS_OF_EXIT[code] ?? 500);
}
