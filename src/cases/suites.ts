// The suites' names, in the order runs and reports take them: all the request's options need of
// the catalogue, so a door's start-up never loads the case definitions. index.ts gathers each
// suite's definition and the compiler holds the two lists equal.
export const SUITES = ["lifecycle", "containment"] as const;

export type SuiteName = (typeof SUITES)[number];
