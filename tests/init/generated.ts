// Inventories nobody wrote by hand, from a seed: which subjects, which suites and pins (in any
// order, per-subject lists too), and which layout (minified, 2 or 4 spaces, tabs).
import { CASES_BY_SUITE, SUITES } from "../../src/cases/index.js";

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An inventory text: 1-3 subjects, suites absent, empty or partly pinned (own lists too), any layout. */
export function generatedInventory(seed: number): string {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const subset = (xs: readonly string[]) => xs.filter(() => r() < 0.5).sort(() => r() - 0.5);
  const names = ["web", "api", "db"].slice(0, 1 + Math.floor(r() * 3));
  const inv: Record<string, unknown> = {
    schemaVersion: 1,
    subjects: names.map((name) => ({ name, image: `${name}:1` })),
  };
  const shape = pick(["absent", "empty", "some"]);
  if (shape !== "absent") {
    const suites: Record<string, unknown> = {};
    if (shape === "some") {
      for (const suite of SUITES) {
        if (r() < 0.3) continue;
        const req: Record<string, unknown> = { required: subset(CASES_BY_SUITE[suite]) };
        const own = names.filter(() => r() < 0.3);
        if (own.length > 0)
          req.subjects = Object.fromEntries(own.map((n) => [n, subset(CASES_BY_SUITE[suite])]));
        suites[suite] = req;
      }
    }
    inv.suites = suites;
  }
  if (r() < 0.5) inv.severity = {};
  return `${JSON.stringify(inv, null, pick([0, 2, 4, "\t"]))}${pick(["", "\n"])}`;
}
