// `npm run demo`: the main job on the bundled example. engine.sh (run first by the npm script)
// makes sure an engine answers and the local base image exists; this runs both suites on
// acceptance/fixtures/hardened through this repository's inventory and prints the report.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const probeImage = process.env.DA_PROBE_IMAGE ?? "docker-acceptance/busybox:local";
if (!existsSync("dist/cli.js")) spawnSync("npm", ["run", "bundle"], { stdio: "inherit" });
const r = spawnSync(
  process.execPath,
  [
    "dist/cli.js",
    "run",
    "--inventory",
    "acceptance/inventory.json",
    "--probe-image",
    probeImage,
    "--out",
    "out/demo",
    ...process.argv.slice(2),
  ],
  { stdio: "inherit" },
);
process.exit(r.status ?? 3);
