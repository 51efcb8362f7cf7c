// A run's build secrets are checked once its inventory is loaded and judged (src/pipeline.ts), as
// its paths are at load (paths.ts), for the subjects the run builds: a
// secret whose variable is unset would only fail lifecycle.build once the engine is contacted, so
// it is a configuration error (exit 2) naming the file, line, field and fix, before any engine
// call. The variables are those the judged inventory grants (the base's in a pull request,
// base.ts), looked up in the process's own environment, which the build reads moments later in
// the same process (the action and the CLI alike: src/suites/lifecycle/build.ts). Only whether a
// variable is set is looked at; its value is neither read here nor shown. When the environment
// is not read for this inventory (no maintainer declared the names), nothing is looked up, not
// even whether a variable exists: the build reports why its secrets are not read.
import type { ConfigProblem } from "../errors.js";
import { jsonPath, locateJson, nearestLine, type Span } from "../jsonpos.js";
import { type EnvironmentAccess, secretIsSet } from "./environment.js";
import type { Inventory, Subject } from "./schema.js";

/** The judged inventory's secrets whose variable is unset, located in the file that was loaded. */
export function unsetSecretProblems(
  judged: Inventory,
  loaded: { text: string; inventory: Inventory },
  access: EnvironmentAccess,
  /** The subjects this run builds (a shard's, or those asked for): another's secrets are its own. */
  selected: readonly Subject[],
  /** The base commit (short) the secrets were taken from, when they were. */
  base?: string,
): ConfigProblem[] {
  if (!access.read) return [];
  let spans: Map<string, Span> | undefined;
  const problems: ConfigProblem[] = [];
  judged.subjects.forEach((s, i) => {
    if (!s.build || !selected.includes(s)) return;
    for (const [id, variable] of Object.entries(s.build.secrets ?? {})) {
      if (secretIsSet(variable)) continue;
      spans ??= locateJson(loaded.text).spans;
      // The loaded file is the pull request's; the base's declaration may not be in it as such.
      const asLoaded = loaded.inventory.subjects[i]?.build?.secrets?.[id] === variable;
      const fromBase = base !== undefined && !asLoaded;
      const at = ["subjects", i, "build", "secrets", id];
      problems.push({
        path: jsonPath(at),
        line: nearestLine(spans, at),
        message: `build secret "${id}" is read from $${variable}, which is not set in this run's environment${fromBase ? ` (declared at the base ${base}, which judges this pull request)` : ""}`,
        fix: `set ${variable} in the environment of the step that runs docker-acceptance (env: in the workflow, or export it before the CLI), or remove "${id}" from build.secrets${fromBase ? " at the base (a change to it takes effect once merged)" : ""}`,
      });
    }
  });
  return problems;
}
