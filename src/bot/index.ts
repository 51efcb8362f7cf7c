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
export { commandOutputs } from "./outputs.js";
export { type Command, parseCommands } from "./parse.js";
export { pinReviewedHead, type Refusal } from "./pin.js";
export { renderHelp, renderNotPinned, renderRefusal } from "./replies.js";
export { applyPinnedHead } from "./stale.js";
export { assertWorkspaceAt, publishCommandRun, readEventPayload } from "./step.js";
