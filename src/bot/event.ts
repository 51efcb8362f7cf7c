// The parts of an `issue_comment` webhook payload the bot reads. Only identifiers come from the
// payload; anything that grants power (the commenter's permission, the PR's head) is read from
// the API, because a payload field such as author_association is a hint, not an authorisation.
import * as z from "zod";

const user = z.object({ login: z.string(), type: z.string().optional() });

export const issueCommentEventSchema = z.object({
  action: z.string(),
  issue: z.object({
    number: z.number().int().positive(),
    /** Present only when the issue is a pull request. */
    pull_request: z.object({ url: z.string().optional() }).nullish(),
  }),
  comment: z.object({
    id: z.number().int().positive(),
    body: z.string().nullish(),
    user: user.nullable(),
    html_url: z.string().optional(),
  }),
  repository: z.object({ name: z.string(), owner: z.object({ login: z.string() }) }),
  sender: user.optional(),
});
export type IssueCommentEvent = z.infer<typeof issueCommentEventSchema>;

/** Apps post as `name[bot]` with type Bot; a missing author (deleted account) is treated as one. */
export function isBot(user: { login: string; type?: string } | null | undefined): boolean {
  if (!user) return true;
  return user.type === "Bot" || user.login.toLowerCase().endsWith("[bot]");
}
