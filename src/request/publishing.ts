// The one function every door builds publishing through: the publishers' options (each declared in
// its own module, src/github/publishers/) from what the door parsed, the rest at their defaults. A
// door that has only some of them (the CLI's `publish` takes --comment alone) means the same as the
// action with those inputs set and the others left empty.
import {
  PUBLISHER_OPTIONS,
  type PublisherOptions,
  type PublishingOptions,
} from "../github/publishers/gathered.js";
import { parseRequest } from "./parse.js";

export type { PublishingOptions } from "../github/publishers/gathered.js";

type PublishingKey = keyof PublisherOptions & string;
const KEYS = Object.keys(PUBLISHER_OPTIONS) as PublishingKey[];

/** The publishers' options: those `given` (a parsed request, or part of one), the others' defaults. */
export function publishingOptions(given: Partial<PublishingOptions> = {}): PublishingOptions {
  const defaults = parseRequest({}, KEYS, "input") as PublishingOptions;
  const set = Object.entries(given).filter(([k, v]) => v !== undefined && (KEYS as string[]).includes(k));
  return { ...defaults, ...Object.fromEntries(set) };
}
