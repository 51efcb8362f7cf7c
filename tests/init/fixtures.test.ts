// `init` on three repositories shaped like real ones (acceptance/fixtures/init/): a single-
// Dockerfile app, a multi-stage Go service, a compose stack of three. What it writes loads, links
// its schema, pins every current case, and takes each setting from where the repository says it;
// it never replaces an inventory without --force.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASES_BY_SUITE, SUITES } from "../../src/cases/index.js";
import { init } from "../../src/commands/init.js";
import { schemaText } from "../../src/commands/schema.js";
import { ConfigError, UsageError } from "../../src/errors.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { commandLine } from "../helpers/cli.js";
import { repoCopy, tempDir } from "./repos.js";

async function runInit(workspace: string, ...flags: string[]) {
  let out = "";
  const code = await init(...commandLine("init", ["--workspace", workspace, ...flags]), (t: string) => {
    out += t;
  });
  const file = path.join(workspace, "acceptance/inventory.json");
  return { code, out, file, text: readFileSync(file, "utf8") };
}

function loaded(workspace: string, text: string) {
  return parseInventory("acceptance/inventory.json", text, { workspace }).inventory;
}

const everyCase = Object.fromEntries(SUITES.map((s) => [s, [...CASES_BY_SUITE[s]]]));

describe("init on a single-Dockerfile app (web-app)", () => {
  it("writes a loadable, schema-linked inventory: port from EXPOSE, TCP readiness, VOLUME writable, every case pinned", async () => {
    const ws = repoCopy("web-app");
    const r = await runInit(ws);
    expect(r.code).toBe(0);
    const inv = loaded(ws, r.text);
    const raw = JSON.parse(r.text);
    expect(raw.$schema).toBe("./inventory.schema.json");
    expect(readFileSync(path.join(ws, "acceptance/inventory.schema.json"), "utf8")).toBe(
      schemaText("inventory"),
    );
    expect(raw.subjects).toEqual([
      {
        name: "app",
        description: expect.any(String),
        build: { context: "." },
        port: 8000,
        readiness: { type: "tcp" },
        writableRoots: ["/tmp", "/dev/shm", "/var/cache/app"],
      },
    ]);
    // The image's USER is described, not forced: a later change dropping it is graded.
    expect(inv.subjects[0]!.user).toBeUndefined();
    expect(raw.subjects[0].description).toContain("USER 10001:10001 (line 13)");
    expect(raw.subjects[0].description).toContain("HEALTHCHECK (line 16) is run by lifecycle.probes");
    for (const s of SUITES) expect(inv.suites[s]?.required).toEqual(everyCase[s]);
    expect(r.out).toContain("wrote ");
    expect(r.out).toContain("next: docker-acceptance run");
  });

  it("never replaces an inventory without --force, and replaces it with --force", async () => {
    const ws = repoCopy("web-app");
    await runInit(ws);
    const file = path.join(ws, "acceptance/inventory.json");
    writeFileSync(file, '{ "mine": true }\n');
    const refused = init(...commandLine("init", ["--workspace", ws]), () => {});
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(refused).rejects.toThrow(
      /exists already; init never replaces an inventory \(fix: run `docker-acceptance init --update`/,
    );
    expect(readFileSync(file, "utf8")).toBe('{ "mine": true }\n');
    const forced = await runInit(ws, "--force");
    expect(forced.code).toBe(0);
    expect(loaded(ws, forced.text).subjects.map((s) => s.name)).toEqual(["app"]);
    await expect(
      init(...commandLine("init", ["--workspace", ws, "--force", "--update"]), () => {}),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it("warns, in the file and on the terminal, when the image would run as root", async () => {
    const ws = repoCopy("web-app");
    const df = path.join(ws, "Dockerfile");
    writeFileSync(df, readFileSync(df, "utf8").replace(/^USER .*\n/m, ""));
    const r = await runInit(ws);
    expect(JSON.parse(r.text).subjects[0].description).toContain("there is no USER line");
    expect(r.out).toMatch(
      /note: app: there is no USER line.*containment\.user fails for root: add a non-root numeric USER/,
    );
  });
});

describe("init on a multi-stage Go service (go-service)", () => {
  it("reads the final stage only, with ARG and ENV substituted", async () => {
    const ws = repoCopy("go-service");
    const r = await runInit(ws);
    const raw = JSON.parse(r.text);
    expect(raw.subjects).toEqual([
      {
        name: "app",
        description: expect.any(String),
        build: { context: "." },
        port: 9090,
        readiness: { type: "tcp" },
      },
    ]);
    expect(raw.subjects[0].description).toMatch(
      /its last stage "runtime" \(line 16\)\. Port 9090: EXPOSE, line 21\./,
    );
    expect(raw.subjects[0].description).toContain("USER 65532:65532 (line 20)");
    loaded(ws, r.text);
  });
});

describe("init on a compose stack of three (compose-stack)", () => {
  it("one subject per service with a build; the image-only service is named with how to grade it", async () => {
    const ws = repoCopy("compose-stack");
    const r = await runInit(ws);
    const raw = JSON.parse(r.text);
    expect(raw.subjects).toEqual([
      {
        name: "web",
        description: expect.any(String),
        build: { context: "web" },
        port: 8080,
        readiness: { type: "tcp" },
      },
      {
        name: "api",
        description: expect.any(String),
        build: { context: "api", target: "runtime", args: { PORT: "9000" } },
        port: 9000,
        readiness: { type: "tcp" },
        user: "10001:10001",
        writableRoots: ["/tmp", "/dev/shm", "/var/cache/api", "/run/api"],
      },
    ]);
    expect(raw.subjects[1].description).toContain('its target stage "runtime" (line 6)');
    expect(r.out).toContain(
      "note: db: uses the image postgres:16-alpine, which this repository does not build",
    );
    expect(r.out).toContain("docker-acceptance check --filter label=com.docker.compose.service=db");
    expect(r.out).toContain(
      'note: api: environment not copied: add what the service needs to start to "env"',
    );
    loaded(ws, r.text);
  });
});

describe("init finds nothing to build", () => {
  it("is a configuration error naming the workspace and the fix", async () => {
    const ws = tempDir("empty");
    await expect(init(...commandLine("init", ["--workspace", ws]), () => {})).rejects.toThrow(
      /found no Dockerfile \(nor a compose service with a build\) in .* \(fix: run init at the repository's root, or pass --workspace DIR\)/,
    );
  });
});
