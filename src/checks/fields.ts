// What the kinds' schemas share with the rest of the inventory: its bounds on text and time
// (the inventory's BOUNDS, ../inventory/schema.ts, reads them from here).
import * as z from "zod";

/** Names, paths, references, probe strings. */
export const TEXT_CHARS = 4096;
/** The longest readiness `delay`. */
export const DELAY_MS = 600_000;

/** A bounded string of the inventory: the PR's author picks its length, not the runner's memory. */
export const text = (min = 0) => z.string().min(min).max(TEXT_CHARS);
