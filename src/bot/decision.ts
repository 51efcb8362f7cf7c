// An accepted command, as one value that crosses job boundaries: the accepting job writes it as
// a JSON output, the suites job takes the SHA and subjects from it, the publish job reads it
// back to finish the command. Parsing it again re-checks every field, so a hand-edited or
// truncated output fails loudly instead of publishing against the wrong commit.
import * as z from "zod";
import { UsageError } from "../errors.js";
import type { EventContext } from "../github/context.js";

export const runDecisionSchema = z.object({
  kind: z.literal("run"),
  owner: z.string().min(1),
  repo: z.string().min(1),
  pr: z.number().int().positive(),
  /** The PR head read when the command was accepted; the run, check run and report use it. */
  headSha: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, "a full commit SHA"),
  /** The PR's base commit when the command was accepted: the inventory's judging parts are read there. */
  baseSha: z
    .string()
    .regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, "a full commit SHA")
    .optional(),
  /** `owner/name` of the PR's head repository. */
  headRepo: z.string().min(1),
  /** The head lives in another repository: its code runs only with a read-only token. */
  fork: z.boolean(),
  /** Empty means every subject in the inventory. */
  subjects: z.array(z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/)),
  commentId: z.number().int().positive(),
  requestedBy: z.string().min(1),
  reactionTarget: z.object({
    owner: z.string().min(1),
    repo: z.string().min(1),
    commentId: z.number().int().positive(),
  }),
});
export type RunDecision = z.infer<typeof runDecisionSchema>;

/** Reads a decision back from a job output (input `command` of the publish step). */
export function parseRunDecision(json: string, source = "command input"): RunDecision {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UsageError(
      `${source}: not JSON (fix: pass the accept step's \`decision\` output unchanged, e.g. \${{ needs.accept.outputs.decision }})`,
    );
  }
  const parsed = runDecisionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${source}: ${issue?.path.join(".") || "(value)"}: ${issue?.message ?? "invalid"} ` +
        "(fix: pass the accept step's `decision` output unchanged; it is only set when the decision is to run)",
    );
  }
  return parsed.data;
}

/**
 * Where a command run publishes: the accepted PR and SHA, never GITHUB_SHA (on issue_comment
 * that is the default branch's head, not the pull request's).
 */
export function commandEventContext(decision: RunDecision, runUrl?: string): EventContext {
  return {
    eventName: "issue_comment",
    kind: "other",
    owner: decision.owner,
    repo: decision.repo,
    sha: decision.headSha,
    pr: {
      number: decision.pr,
      headSha: decision.headSha,
      headRepo: decision.headRepo,
      baseRepo: `${decision.owner}/${decision.repo}`,
      baseSha: decision.baseSha,
    },
    // The publish phase holds the write token; the fork's code ran in another job.
    readOnly: false,
    runUrl,
  };
}
