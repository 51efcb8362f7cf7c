// How a publisher records a failure: never an exception, always a message the action prints once.
import { errorEvidence } from "../../errors.js";
import { PublishError } from "../client.js";

export function describeError(err: unknown): string {
  return err instanceof PublishError ? err.message : errorEvidence(err).message;
}

/**
 * Records a publishing failure in `errors` and, for callers that print notices only, `notices`;
 * the action prints each message once (a warning).
 */
export function recordFailure(
  result: { notices: string[]; errors: Array<{ kind: string; message: string }> },
  err: unknown,
): void {
  const message = describeError(err);
  result.errors.push({ kind: err instanceof PublishError ? err.kind : "publish", message });
  result.notices.push(message);
}
