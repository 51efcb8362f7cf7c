// What the kinds' schemas share with the rest of the inventory: bounded text, request paths, and
// refinements written as rules (./rules.ts), which the inventory's precompiled check runs too.
import * as z from "zod";
import { type RuleContext, requestPathRule, TEXT_CHARS } from "./rules.js";

/** A bounded string of the inventory: the PR's author picks its length, not the runner's memory. */
export const text = (min = 0) => z.string().min(min).max(TEXT_CHARS);

/** The function (and its argument) behind each check `rule` made: what the precompiled check calls. */
const RULES = new WeakMap<object, { fn: RuleFn; arg?: string }>();

// biome-ignore lint/suspicious/noExplicitAny: a rule takes the value its schema parsed
type RuleFn = (value: any, ctx: RuleContext, arg?: string) => void;

/**
 * A refinement written as a rule: a named function of a zod-free module (./rules.ts,
 * src/inventory/rules.ts), so that the inventory's precompiled check (src/inventory/precheck.ts)
 * runs the very same code. `arg` is handed to it as its third argument; `evenWhenInvalid` runs it
 * when a field elsewhere is invalid too (zod's `when`), so one pass reports every problem.
 */
export function rule<T>(
  fn: (value: T, ctx: RuleContext, arg?: string) => void,
  opts: { arg?: string; evenWhenInvalid?: boolean } = {},
): z.core.$ZodCheck<T> {
  const check = z.superRefine<T>(
    (value, ctx) => fn(value, ctx, opts.arg),
    opts.evenWhenInvalid ? { when: () => true } : undefined,
  );
  RULES.set(check, { fn, ...(opts.arg === undefined ? {} : { arg: opts.arg }) });
  return check;
}

/** The rule behind a check, or undefined when the check is not one (src/inventory/precheck-plan.ts). */
export function ruleOf(check: object): { fn: RuleFn; arg?: string } | undefined {
  return RULES.get(check);
}

/**
 * An HTTP request path as it goes on the request line (./rules.ts `requestPathRule`); the pattern
 * is for editors reading the JSON Schema.
 */
export const requestPath = () =>
  text().startsWith("/").check(rule(requestPathRule)).meta({ pattern: "^/(?:[!-$&-~]|%[0-9A-Fa-f]{2})*$" });
