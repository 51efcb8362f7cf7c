// Docker's legacy builder puts a build's labels on its last image only (moby appends one LABEL to
// the last stage), so every other image it commits is untagged and shows as nobody's: each step
// image of a stage but the last, and every step image of a build that failed. Nothing could prove
// them ours, so they stayed on the engine, a few more at every run. Here each stage opens with our
// labels instead, and the engine itself shows every image the build commits after a FROM as ours.
//
// The rewritten Dockerfile goes as Docker's own CLI sends one it was handed apart (`docker build
// -f -`): a context file of a random name that the context's .dockerignore names, so the engine
// drops it from the context before any step sees it. The pull request's Dockerfile is sent as it is.
import { randomBytes } from "node:crypto";
import type { SentApart } from "../../context.js";
import { parseDockerfile } from "../../dockerfile.js";

/** A label key or value written unquoted: the run's own (IDs and subject names) always are. */
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/**
 * `text` with a LABEL of `labels` after each FROM, or undefined when that cannot be written
 * safely (no FROM the parser sees; a label that is not plain), and the build goes as before.
 */
export function withStageLabels(text: string, labels: Record<string, string>): SentApart | undefined {
  const entries = Object.entries(labels);
  if (entries.length === 0 || !entries.every(([k, v]) => PLAIN.test(k) && PLAIN.test(v))) return undefined;
  const ends = new Set(
    parseDockerfile(text)
      .instructions.filter((i) => /^FROM\s/i.test(i.text))
      .map((i) => i.endLine),
  );
  if (ends.size === 0) return undefined;
  const label = `LABEL ${entries.map(([k, v]) => `${k}=${v}`).join(" ")}`;
  // Split as the parser does (a CR stays on its line), so each FROM's last line is where it said;
  // one pass, since the pull request may write a FROM on every line of a large file.
  const lines: string[] = [];
  text.split("\n").forEach((line, i) => {
    lines.push(line);
    if (ends.has(i + 1)) lines.push(label);
  });
  return { name: `.dockerfile.${randomBytes(10).toString("hex")}`, text: lines.join("\n") };
}
