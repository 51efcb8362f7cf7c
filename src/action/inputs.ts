// Action inputs, read once and validated: the same meaning as the CLI flags (one request schema).
// Their type is the request's, for the options that have an input: the option table is the one list.
import * as core from "@actions/core";
import { parseRequest, REQUEST_OPTIONS, type RequestKey, type RequestOf } from "../request/parse.js";

/** The options an action input sets (those with an `input` in the table). */
type InputKey = {
  [K in RequestKey]: (typeof REQUEST_OPTIONS)[K] extends { input: string } ? K : never;
}[RequestKey];

/** Every input, typed by its option's kind (a string input left empty is ""). */
export type ActionInputs = RequestOf<InputKey>;

export type Mode = ActionInputs["mode"];

const INPUT_KEYS = (Object.keys(REQUEST_OPTIONS) as RequestKey[]).filter(
  (k): k is InputKey => "input" in REQUEST_OPTIONS[k],
);

/** Every input through the one request schema (src/request/parse.ts), which names the input at fault. */
export function readInputs(): ActionInputs {
  const raw = Object.fromEntries(INPUT_KEYS.map((k) => [k, core.getInput(REQUEST_OPTIONS[k].input)]));
  return parseRequest(raw, INPUT_KEYS, "input");
}
