// Keeps generated documentation in sync with its sources. `--check` fails (exit 1) on drift, for CI.
// Today: nothing generated yet besides what tests compare; the action.yml tables land here.
const check = process.argv.includes("--check");
const drift = [];
if (drift.length > 0) {
  console.error(`out of date: ${drift.join(", ")}; run 'npm run docs' and commit`);
  process.exit(check ? 1 : 0);
}
console.log("generated files are in sync");
