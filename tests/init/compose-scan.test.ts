// What init takes from a compose file (every syntax compose accepts for the fields it reads), and
// where it looks for Dockerfiles: bounded, links never followed, other people's trees skipped.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCompose } from "../../src/commands/init/compose.js";
import { draftSubjects } from "../../src/commands/init/draft.js";
import { MAX_DOCKERFILES, scanWorkspace } from "../../src/commands/init/scan.js";
import { ConfigError } from "../../src/errors.js";
import { tempDir } from "./repos.js";

const service = (yaml: string) => readCompose(`services:\n  s:\n${yaml}`, "compose.yaml").services[0]!;

describe("readCompose", () => {
  it.each([
    ['    ports: ["8080"]', [8080]],
    ['    ports: ["127.0.0.1:8081:80"]', [80]],
    ['    ports: ["9000-9001:9000-9001"]', [9000]],
    ['    ports: ["53:53/udp", "5000:5000/tcp"]', [5000]],
    ["    ports: [{ target: 3000, published: 80 }]", [3000]],
    ['    ports: ["${PORT:-1}:7000"]', [7000]],
    ['    expose: [3000, "4000/tcp", "3000"]', [3000, 4000]],
  ])("%s gives the container ports %j", (yaml, ports) => {
    expect(service(yaml).ports).toEqual(ports);
  });

  it("reads build as a path or an object, args as a map or a list, and refuses what is not in the repository", () => {
    expect(service("    build: ./api/").build).toEqual({
      context: "api",
      dockerfile: "Dockerfile",
      args: {},
    });
    expect(
      service(
        "    build:\n      context: .\n      dockerfile: docker/app.Dockerfile\n      target: prod\n      args: [A=1, B, C=x=y]",
      ).build,
    ).toEqual({
      context: ".",
      dockerfile: "docker/app.Dockerfile",
      target: "prod",
      args: { A: "1", C: "x=y" },
    });
    expect(service("    build: { context: ., args: { A: 1, B: null } }").build?.args).toEqual({ A: "1" });
    for (const [yaml, note] of [
      ["    build: https://github.com/x/y.git", "is remote"],
      ["    build: ../elsewhere", "is outside the repository"],
      ["    build: { context: ., dockerfile_inline: 'FROM x' }", "dockerfile_inline"],
    ] as const) {
      const s = service(yaml);
      expect(s.build).toBeUndefined();
      expect(s.notes.join("\n")).toContain(note);
    }
  });

  it("takes named and anonymous volumes and tmpfs as writable; binds and read-only volumes are not", () => {
    const s = service(
      [
        "    volumes:",
        "      - data:/var/lib/data",
        "      - /anon",
        "      - ./src:/app",
        "      - cache:/ro:ro",
        "      - { type: tmpfs, target: /scratch }",
        "      - { type: volume, source: x, target: /long }",
        "    tmpfs: [/run/a, '/run/b:size=1m']",
      ].join("\n"),
    );
    expect(s.writable).toEqual(["/var/lib/data", "/anon", "/scratch", "/long", "/run/a", "/run/b"]);
    expect(s.notes).toContain(
      "s: the bind mount at /app is not carried over (a run binds nothing from the host)",
    );
  });

  it("reads user, command, capabilities and limits; a variable without a default is said, not guessed", () => {
    const s = service(
      [
        "    image: app:${TAG}",
        "    user: 1000",
        "    command: serve --port 80",
        "    cap_add: [CAP_NET_BIND_SERVICE, chown]",
        "    mem_limit: 512M",
        "    deploy: { resources: { limits: { cpus: '0.5', pids: 50 } } }",
      ].join("\n"),
    );
    expect([s.image, s.user, s.command, s.capAdd, s.limits]).toEqual([
      undefined,
      "1000",
      ["serve", "--port", "80"],
      ["NET_BIND_SERVICE", "CHOWN"],
      { memory: "512m", cpus: 0.5, pids: 50 },
    ]);
    expect(s.notes).toContain("s.image: $TAG is set where compose runs, so it was not read");
  });

  it("bounds aliases, so a YAML bomb is an error, not a hang", () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) => `${"bcdefghi"[i]}: &${"bcdefghi"[i]} [${Array(9).fill(`*${"abcdefgh"[i]}`).join(",")}]`,
      ),
      "services: {}",
    ].join("\n");
    expect(() => readCompose(bomb, "compose.yaml")).toThrow(/alias/i);
  });
});

describe("draftSubjects with a compose file", () => {
  it("a compose file it cannot read is a configuration error naming it", async () => {
    const ws = tempDir("bad-compose");
    writeFileSync(path.join(ws, "compose.yaml"), "services: [unclosed\n");
    await expect(draftSubjects(ws)).rejects.toThrow(ConfigError);
    await expect(draftSubjects(ws)).rejects.toThrow(/compose\.yaml: not a compose file init can read/);
  });

  it("leaves out what the hardened launch refuses, saying why", async () => {
    const ws = tempDir("caps");
    mkdirSync(path.join(ws, "app"));
    writeFileSync(path.join(ws, "app/Dockerfile"), "FROM x\nUSER 1:1\nVOLUME /proc\n");
    writeFileSync(
      path.join(ws, "compose.yaml"),
      "services:\n  app:\n    build: ./app\n    cap_add: [NET_BIND_SERVICE, SYS_ADMIN]\n",
    );
    const d = await draftSubjects(ws);
    expect(d.subjects[0]).toMatchObject({ name: "app", capabilities: ["NET_BIND_SERVICE"] });
    expect(d.subjects[0]!.writableRoots).toBeUndefined();
    expect(d.notes.join("\n")).toMatch(/SYS_ADMIN would defeat containment/);
    expect(d.notes.join("\n")).toMatch(/\/proc cannot be an allotted writable root/);
  });
});

describe("scanWorkspace", () => {
  it("finds Dockerfiles by their usual names, skips dependencies and hidden trees, follows no link", async () => {
    const ws = tempDir("scan");
    const file = (rel: string) => {
      mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      writeFileSync(path.join(ws, rel), "FROM x\n");
    };
    for (const f of [
      "Dockerfile",
      "Dockerfile.dev",
      "svc/worker.Dockerfile",
      "svc/Containerfile",
      "node_modules/pkg/Dockerfile",
      ".git/Dockerfile",
      "vendor/x/Dockerfile",
      "a/b/c/d/Dockerfile",
      "a/b/c/d/e/Dockerfile",
      "notes/Dockerfile.md.txt/x",
      "src/dockerfile.ts",
      "src/Dockerfile.test.ts",
      "docs/Dockerfile.md",
      "tmpl/Dockerfile.template",
    ])
      file(f);
    const outside = tempDir("outside");
    writeFileSync(path.join(outside, "Dockerfile"), "FROM x\n");
    symlinkSync(outside, path.join(ws, "linked"));
    symlinkSync(path.join(outside, "Dockerfile"), path.join(ws, "svc/Dockerfile"));
    const scan = await scanWorkspace(ws);
    expect(scan.dockerfiles).toEqual([
      "Dockerfile",
      "Dockerfile.dev",
      "svc/Containerfile",
      "svc/worker.Dockerfile",
      "a/b/c/d/Dockerfile",
    ]);
    const names = (await draftSubjects(ws)).subjects.map((s) => s.name);
    expect(names).toEqual(["app", "dev", "svc", "svc-worker", "d"]);
  });

  it(`lists at most ${MAX_DOCKERFILES} Dockerfiles, the shallowest, and says so`, async () => {
    const ws = tempDir("many");
    for (let i = 0; i < MAX_DOCKERFILES + 5; i++) {
      mkdirSync(path.join(ws, `s${String(i).padStart(2, "0")}`));
      writeFileSync(path.join(ws, `s${String(i).padStart(2, "0")}`, "Dockerfile"), "FROM x\n");
    }
    const scan = await scanWorkspace(ws);
    expect(scan.dockerfiles).toHaveLength(MAX_DOCKERFILES);
    expect(scan.notes).toEqual([
      `found ${MAX_DOCKERFILES + 5} Dockerfiles; the first ${MAX_DOCKERFILES} (the shallowest) are listed`,
    ]);
  });

  it("builds a docker/Dockerfile from the root when what it copies is there", async () => {
    const ws = tempDir("ctx");
    mkdirSync(path.join(ws, "docker"));
    writeFileSync(path.join(ws, "docker/Dockerfile"), "FROM x\nCOPY package.json src/ /app/\n");
    writeFileSync(path.join(ws, "package.json"), "{}");
    mkdirSync(path.join(ws, "src"));
    const [s] = (await draftSubjects(ws)).subjects;
    expect(s!.build).toEqual({ context: ".", dockerfile: "docker/Dockerfile" });
  });
});
