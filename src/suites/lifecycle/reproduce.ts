// The launch as one line a person can paste, in the engine's own CLI (the engine writes it): here
// only which image the line runs, the subject's prebuilt reference or the build that makes it.
import type { ReproduceImage } from "../../engine/provider.js";
import type { Subject } from "../../inventory/schema.js";

export { shellQuote } from "../../engine/shell.js";

export function reproduceImage(subject: Subject): ReproduceImage {
  if (subject.image) return { ref: subject.image };
  const b = subject.build!;
  return {
    build: {
      context: b.context,
      dockerfile: b.dockerfile,
      ...(b.target ? { target: b.target } : {}),
      args: b.args,
    },
  };
}
