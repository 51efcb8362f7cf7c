// Podman's storage race. Podman keeps no lock across a read of its image store: a listing or an
// inspect that meets an image another client is removing fails as a whole, a 500 ending "image not
// known" ("reading image …: locating image with ID …"), and a build can lose a layer the same way;
// Docker's legacy builder can lose a cached step image the same way. It is the engine's passing
// fault, never the subject's: a read is asked again, a build made again.
import { sleep } from "../../deadline.js";

/** Podman's words when it lost track of its own images (another client removed one meanwhile). */
const STORAGE_RACE = /\b(image|layer) not known\b/;

/**
 * Docker's legacy builder when an image it was standing on (a step image of another build, taken
 * as its cache) was removed meanwhile by that build's cleanup: the engine's words around an image
 * ID, the whole message, so no text the pull request wrote can match it (seen under a loaded CI).
 */
const LEGACY_LOST_IMAGE = /^unable to find image "sha256:[0-9a-f]{64}"$/;

/** How each builder says a step ran and failed: the subject's failure, whatever else it says. */
const STEP_EXITED = /returned a non-zero code|exit status \d|did not complete successfully|exit code: \d/;

/**
 * Whether a failed build is the engine losing its own images rather than the Dockerfile's fault.
 * Podman's race: the error text quotes the pull request's own words (the step's command, a COPY
 * source, a build argument), so those never decide it: a step that ran and exited is the
 * subject's, and what the engine quotes is cut out before the engine's own words are read.
 * Docker's: only its legacy builder's exact message about a lost image ID.
 */
export function isStorageRace(reason: string, product: string): boolean {
  if (product === "docker") return LEGACY_LOST_IMAGE.test(reason.trim());
  if (product !== "podman" || STEP_EXITED.test(reason)) return false;
  const unquoted = reason.replace(/"(?:[^"\\]|\\.)*"|'[^']*'|\{[^{}]*\}|\[[^[\]]*\]/g, "");
  return STORAGE_RACE.test(unquoted);
}

/**
 * How long a read keeps meeting the race before it is the engine's ERROR. Removals come in bursts
 * (a run's cleanup, a parallel run's): on a loaded runner one read met the race five times in 1.5 s.
 */
const RACE_READ_MS = 20_000;

/**
 * An idempotent read (an inspect, a listing), asked again while the engine answers with the race:
 * backing off from 100 ms to 2 s, for up to RACE_READ_MS or until `signal` (the call's deadline)
 * ends it. Any other answer, success or failure, is the read's.
 */
export async function readThroughRace<T>(read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const until = Date.now() + RACE_READ_MS;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await read();
    } catch (err) {
      const e = err as { statusCode?: number; message?: string };
      const race = e.statusCode === 500 && STORAGE_RACE.test(String(e.message));
      if (!race || signal?.aborted || Date.now() + delay > until) throw err;
      await sleep(delay, signal);
    }
  }
}
