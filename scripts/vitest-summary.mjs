// One line per test file of a vitest JSON report (result counts and seconds), for a CI leg's
// summary; exits 1 when a file graded nothing, so a leg whose tests were all skipped cannot pass:
//   - a file none of whose tests passed or failed (all skipped or todo): "GRADED NOTHING";
//   - a file that failed outside its tests (a beforeAll that threw or timed out skips every test
//     under it): its error is printed, first lines only;
//   - with --no-skips, any skipped test (todos are not skips): the leg's files must grade
//     everything on its platform, so a skip there is a test that did not run.
//
//   node scripts/vitest-summary.mjs [--no-skips] results.json
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const noSkips = args.includes("--no-skips");
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: vitest-summary.mjs [--no-skips] results.json");
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, "utf8"));
// A file's startTime in vitest's JSON is its first test's start: its import and beforeAll (the
// whole set-up of the matrices, minutes in the VM) are not in endTime - startTime. When the files
// ran one after another (--maxWorkers=1: none starts before the previous one ended), a file's time
// is counted from the previous file's end, or the run's start, and so includes its set-up.
const files = [...(report.testResults ?? [])].sort((a, b) => a.startTime - b.startTime);
const serial = files.every((f, i) => i === 0 || f.startTime >= files[i - 1].endTime);
const since = (i) => (serial ? (i === 0 ? report.startTime : files[i - 1].endTime) : files[i].startTime);
let bad = 0;
for (const [i, f] of files.entries()) {
  const count = (...statuses) => f.assertionResults.filter((a) => statuses.includes(a.status)).length;
  const passed = count("passed");
  const failed = count("failed");
  const skipped = count("skipped", "pending", "disabled");
  const todo = count("todo");
  const secs = ((f.endTime - since(i)) / 1000).toFixed(0) + (serial ? "" : " (tests only)");
  const name = f.name.replace(/^.*?tests\//, "tests/");
  const problems = [];
  if (passed + failed === 0) problems.push("GRADED NOTHING");
  if (f.status === "failed" && failed === 0)
    problems.push(
      `failed outside its tests: ${String(
        f.message || "its error is in vitest.log (vitest's JSON leaves a hook's out)",
      )
        .split("\n")
        .slice(0, 3)
        .join(" | ")}`,
    );
  if (noSkips && skipped > 0) {
    const names = f.assertionResults.filter((a) => a.status === "skipped" || a.status === "pending");
    problems.push(
      `${skipped} skipped, which this leg does not allow (${names
        .slice(0, 3)
        .map((a) => a.title)
        .join("; ")}${skipped > 3 ? "; ..." : ""})`,
    );
  }
  if (problems.length) bad++;
  const todos = todo ? `, ${todo} todo` : "";
  console.log(
    `${name}: ${passed} passed, ${failed} failed, ${skipped} skipped${todos}, ${secs} s` +
      problems.map((p) => `\n  ${p}`).join(""),
  );
}
if (!report.testResults?.length) {
  console.log("no test file ran: GRADED NOTHING");
  bad++;
}
process.exit(bad ? 1 : 0);
