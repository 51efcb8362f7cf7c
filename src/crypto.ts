// node:crypto, loaded on first use. Loading it costs a process about 5 ms of CPU, and what a run
// does before its first engine call needs none of it: the run id's randomness is read from the
// kernel's generator directly (randomBytes draws from the same), and the inventory's digest is
// taken when the report needs it. Everything else keeps importing node:crypto where it is used.
import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

let crypto: typeof import("node:crypto") | undefined;

/**
 * node:crypto itself, required the first time it is asked for (the require made then too: a module
 * evaluated from a data: URL, as scripts/docs.mjs loads the sources, has no file to require from).
 */
function lazyCrypto(): typeof import("node:crypto") {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return crypto;
}

/** `bytes` random bytes as lowercase hex: /dev/urandom, or node:crypto where there is none (Windows). */
export function randomHex(bytes: number): string {
  const buf = Buffer.alloc(bytes);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      if (readSync(fd, buf, 0, bytes, null) === bytes) return buf.toString("hex");
    } finally {
      closeSync(fd);
    }
  } catch {
    // no /dev/urandom here
  }
  return lazyCrypto().randomBytes(bytes).toString("hex");
}

/** The sha256 of a text's UTF-8 bytes, as lowercase hex. */
export function sha256Hex(text: string): string {
  return lazyCrypto().createHash("sha256").update(text).digest("hex");
}
