// The bot that answers `/acceptance` commands on pull requests (docs/commands.md).
export { commandEventContext, parseRunDecision, type RunDecision, runDecisionSchema } from "./decision.js";
export { type IssueCommentEvent, isBot, issueCommentEventSchema } from "./event.js";
export {
  type BotDecision,
  type BotDeps,
  type CommandOutcome,
  finishCommand,
  handleIssueComment,
  isHeadStale,
  type PullRef,
  type Reaction,
} from "./handle.js";
export { COMMAND_OUTPUT_DESCRIPTIONS, COMMAND_OUTPUTS, commandOutputs } from "./outputs.js";
export { type Command, parseCommands } from "./parse.js";
export { type Pin, PUSH_MARGIN_MS, type PullHead, pinReviewedHead, type Refusal } from "./pin.js";
export { type LastPush, lastPush } from "./pushes.js";
export { renderHelp, renderNotPinned, renderRefusal, replyMarker } from "./replies.js";
export { applyPinnedHead } from "./stale.js";
export {
  assertWorkspaceAt,
  type PublishCommandOptions,
  type PublishCommandResult,
  publishCommandRun,
  readEventPayload,
} from "./step.js";
