// What a case and a suite are, as types: the shape every file of src/cases/<suite>/ fills in and
// the suites' indexes gather. Apart from them, so that a case imports the shape and not the
// catalogue that imports it (no circle between the catalogue and its entries).

/**
 * The forms a fix is said in: `inventory` (the pinned inventory's fields, as `run` and the action
 * launch the subject), `cli` (the engine CLI's flags, for a container `check` grades) and `compose`
 * (the keys of a compose service). A CLI command in a text is written `{cli} run ...`, filled by
 * fillCli from the engine facts: no text names an engine.
 */
export type FixForm = "inventory" | "cli" | "compose";

/** One case, defined once. */
export interface CaseDef<Id extends string = string> {
  /** Dotted and stable (`<suite>.<name>`): the inventory pins it, reports are compared by it. */
  readonly id: Id;
  /** A few words a person reads in a table. */
  readonly title: string;
  /** What the case measures and what fails it (markdown, one paragraph). */
  readonly measures: string;
  /** Where the case maps onto Kubernetes Pod Security Standards and the CIS Benchmark 1.6. */
  readonly standards?: { readonly pss: string; readonly cis: string };
  /**
   * The fix when the case does not pass, per form. Lifecycle cases have none here: their fix depends
   * on what happened (the failing Dockerfile line, the crash's cause) and the case's code says it.
   */
  readonly remediation?: Readonly<Record<FixForm, string>>;
}

/** One suite: its name (the `--suite` value, the inventory's `suites.<name>`) and its cases in run order. */
export interface Suite<Def extends CaseDef = CaseDef> {
  readonly name: string;
  readonly title: string;
  /** One sentence: what the suite establishes. */
  readonly purpose: string;
  readonly cases: readonly Def[];
}

/**
 * A containment case: its fix is said in every form (check mode grades containers launched by
 * hand or by compose). Its grader lives with the suite (src/suites/containment/graders/), keyed
 * by the case's id, because it reads the engine's evidence and the catalogue sits below that.
 */
export type ContainmentCaseDef = CaseDef<`containment.${string}`> & {
  readonly remediation: Readonly<Record<FixForm, string>>;
};
