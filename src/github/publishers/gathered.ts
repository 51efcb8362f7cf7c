// What the list of publishers (./index.ts) adds up to: the options they own (the request gathers
// them, src/request/options.ts), the step outputs they declare (src/action/step-outputs.ts gathers
// them), the values publishReport takes, and PublishResult, a record of every publisher's slice
// keyed by its name. Derived, so a new publisher changes none of this.
import { describeOutputs, type OutputDescriptions, type ValuesOf } from "../../option.js";
import { PUBLISHERS } from "./index.js";

type Listed = (typeof PUBLISHERS)[number];
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

type PublisherName = Listed["name"];

/** Every publisher's options, keyed by their field in the request. */
export type PublisherOptions = Intersection<Listed["options"]>;
export const PUBLISHER_OPTIONS = Object.assign({}, ...PUBLISHERS.map((p) => p.options)) as PublisherOptions;

/** The parsed values of every publisher's options (src/request/publishing.ts builds them). */
export type PublishingOptions = ValuesOf<PublisherOptions>;

/** Each publisher's slice, by its name. */
export type PublishedSlices = { [P in Listed as P["name"]]: ReturnType<P["initial"]> };

export type PublishResult = PublishedSlices & {
  /** HTTP requests to GitHub this run made through the client, retries included. */
  requests: number;
  /** Things a maintainer should know (fork PR skipped, permission missing, ...). Never secret. */
  notices: string[];
  errors: Array<{ kind: string; message: string }>;
};

/** Every publisher's step outputs with their descriptions, in the list's order (a name twice throws). */
export const PUBLISHER_OUTPUTS: OutputDescriptions = describeOutputs(
  ...PUBLISHERS.map((p) => p.outputs ?? {}),
);

/** The step outputs the publishers set from their slices; those whose value is undefined are left out. */
export function publishedOutputs(result: PublishResult): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const p of PUBLISHERS) {
    const slice = result[p.name as PublisherName] as ReturnType<Listed["initial"]>;
    const outputs: Readonly<Record<string, { value(s: never): number | string | undefined }>> =
      p.outputs ?? {};
    for (const [name, o] of Object.entries(outputs)) {
      const v = o.value(slice as never);
      if (v !== undefined) out[name] = v;
    }
  }
  return out;
}

/** `check run completed (#5), comment created (#7), 4 GitHub API request(s)`: the log's line. */
export function describePublished(result: PublishResult): string {
  const parts = PUBLISHERS.flatMap((p) => {
    const said = p.describe?.(result[p.name as PublisherName] as never);
    return said ? [said] : [];
  });
  return `published: ${[...parts, `${result.requests} GitHub API request(s)`].join(", ")}`;
}
