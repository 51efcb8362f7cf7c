// The case catalogue: every suite and every case, defined once (one file per case in
// src/cases/<suite>/, gathered by that folder's index.ts and here), so the inventory's schema, the
// suites, the report, check mode's fixes and the docs can all read it. Case IDs, their types, the
// schema's enums, the JUnit groups and the README's case tables are derived from SUITE_REGISTRY.
// What a case is lives here, at the bottom; how a suite measures and grades it lives in the suite.

import { CONTAINMENT_SUITE } from "./containment/index.js";
import type { CASE_IDS } from "./ids.js";
import { LIFECYCLE_SUITE } from "./lifecycle/index.js";
import { SUITES, type SuiteName } from "./suites.js";
import type { CaseDef, FixForm } from "./types.js";

export { CONTAINMENT_SUITE, SUITES, type SuiteName };
/** Every suite, in the order runs and reports take them. A new suite: one entry here. */
export const SUITE_REGISTRY = [LIFECYCLE_SUITE, CONTAINMENT_SUITE] as const;

type Registered = (typeof SUITE_REGISTRY)[number];
// suites.ts lists the same suites in the same order: a suite added in one place only does not compile.
type NamesOf<T extends readonly { name: string }[]> = { [K in keyof T]: T[K]["name"] };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<NamesOf<typeof SUITE_REGISTRY>, typeof SUITES>;
// ids.ts lists each suite's case IDs in run order for what must not load the definitions (npm run
// docs writes it): a stale list does not compile.
type IdsOf<T extends readonly { id: string }[]> = { [K in keyof T]: T[K]["id"] };
true satisfies Same<{ [S in Registered as S["name"]]: IdsOf<S["cases"]> }, typeof CASE_IDS>;
type LifecycleCaseId = (typeof LIFECYCLE_SUITE)["cases"][number]["id"];
export type ContainmentCaseId = (typeof CONTAINMENT_SUITE)["cases"][number]["id"];
export type CaseId = Registered["cases"][number]["id"];

const idsOf = <Id extends string>(cases: readonly { id: Id }[]) => cases.map((c) => c.id);

export const LIFECYCLE_CASES: readonly LifecycleCaseId[] = idsOf(LIFECYCLE_SUITE.cases);
export const CONTAINMENT_CASES: readonly ContainmentCaseId[] = idsOf(CONTAINMENT_SUITE.cases);
export const ALL_CASES: readonly CaseId[] = SUITE_REGISTRY.flatMap((s) => idsOf<CaseId>(s.cases));
export const CASES_BY_SUITE = Object.fromEntries(
  SUITE_REGISTRY.map((s) => [s.name, idsOf<CaseId>(s.cases)]),
) as unknown as Record<SuiteName, readonly CaseId[]>;

const BY_ID = new Map<string, { suite: SuiteName; def: CaseDef }>(
  SUITE_REGISTRY.flatMap((s) => s.cases.map((def: CaseDef) => [def.id, { suite: s.name, def }] as const)),
);

/** The definition of a registered case; undefined for an ID no suite defines. */
export function caseDef(caseId: string): CaseDef | undefined {
  return BY_ID.get(caseId)?.def;
}

export function isSuiteName(name: string): name is SuiteName {
  return (SUITES as readonly string[]).includes(name);
}

export function suiteOf(caseId: CaseId): SuiteName {
  return BY_ID.get(caseId)!.suite;
}

/** `{cli}` in a fix becomes the engine's CLI; the one place a default is chosen, for facts that do not say. */
export function fillCli(text: string, facts?: { readonly cli?: string }): string {
  return text.replaceAll("{cli}", facts?.cli ?? "docker");
}

/** A registered case's fix in one form, `{cli}` filled; undefined when the catalogue has none. */
export function remediationOf(
  caseId: string,
  form: FixForm,
  facts?: { readonly cli?: string },
): string | undefined {
  const text = caseDef(caseId)?.remediation?.[form];
  return text === undefined ? undefined : fillCli(text, facts);
}
