// Where a failing case points: the Dockerfile line the image decides it by (USER, what runs as
// PID 1, HEALTHCHECK, of the stage that runs), else the inventory line of the field that decides
// it, else the subject's entry; repository-relative, and a case's own place (a build step) kept.
import { describe, expect, it } from "vitest";
import { parseDockerfile } from "../../src/engine/dockerfile.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import type { CaseResult } from "../../src/report/model.js";
import { inventorySource, locateCase } from "../../src/suites/lifecycle/locate.js";

const DOCKERFILE = [
  "FROM golang:1.22 AS build", // 1
  "RUN go build -o /app .", // 2
  "USER 1000", // 3
  "", // 4
  "FROM debian:bookworm AS app", // 5
  "COPY --from=build /app /app", // 6
  "HEALTHCHECK CMD curl -f http://localhost:8080/health", // 7
  'ENTRYPOINT ["/app"]', // 8
  'CMD ["--serve"]', // 9
  "", // 10
  "FROM app AS debug", // 11
  "USER 65532", // 12
].join("\n");

const INVENTORY = `{
  "subjects": [
    { "name": "other", "image": "x:1" },
    {
      "name": "api",
      "build": { "context": "svc", "target": "app" },
      "capabilities": ["NET_BIND_SERVICE"],
      "probes": [
        { "path": "/" },
        { "path": "/metrics", "status": 200 }
      ]
    }
  ]
}
`;

const inventory = inventorySource("acceptance/inventory.json", INVENTORY, "api")!;
const dockerfile = { path: "svc/Dockerfile", parsed: parseDockerfile(DOCKERFILE) };
const subject = (extra: Record<string, unknown> = {}) =>
  subjectSchema.parse({ name: "api", build: { context: "svc", target: "app" }, ...extra });
const failing = (id: string, extra: Partial<CaseResult> = {}): CaseResult => ({
  id,
  suite: id.startsWith("containment.") ? "containment" : "lifecycle",
  subject: "api",
  status: "fail",
  severity: "fail",
  durationMs: 1,
  message: "",
  evidence: {},
  ...extra,
});
const at = (c: CaseResult, s = subject()) => locateCase(c, s, { dockerfile, inventory });

describe("a failing case's location", () => {
  it("reads the subject's own entry, not another's: each field's line and each probe's", () => {
    expect(inventory.lines).toMatchObject({ name: 5, build: 6, capabilities: 7, probes: 8 });
    expect(inventory.lines["probes[1]"]).toBe(10);
    expect(inventorySource(undefined, INVENTORY, "api")).toBeUndefined();
    expect(inventorySource("inventory.json", INVENTORY, "nobody")).toBeUndefined();
  });

  it("a root user: the target stage's USER line, or where one would go; the inventory's user if it sets one", () => {
    const stageWithoutUser = at(failing("containment.user"));
    expect(stageWithoutUser).toEqual({ path: "svc/Dockerfile", line: 9 }); // the app stage has no USER
    const debug = subject({ build: { context: "svc", target: "debug" } });
    expect(at(failing("containment.user"), debug)).toEqual({ path: "svc/Dockerfile", line: 12 });
    const fromInventory = inventorySource(
      "inv.json",
      INVENTORY.replace('"name": "api",', '"name": "api", "user": "0",'),
      "api",
    )!;
    expect(
      locateCase(failing("containment.user"), subject({ user: "0" }), {
        dockerfile,
        inventory: fromInventory,
      }),
    ).toEqual({
      path: "inv.json",
      line: 5,
    });
  });

  it("a stop or a crash: what runs as PID 1 (ENTRYPOINT over CMD); a HEALTHCHECK failure: its line", () => {
    expect(at(failing("lifecycle.stop"))).toEqual({ path: "svc/Dockerfile", line: 8 });
    // A signal no process can handle is its STOPSIGNAL line; from the base image (none here): PID 1.
    const unhandleable = failing("lifecycle.stop", { evidence: { unhandleable: true } });
    expect(at(unhandleable)).toEqual({ path: "svc/Dockerfile", line: 8 });
    expect(at(failing("lifecycle.ready", { evidence: { exitCode: 1 } }))).toEqual({
      path: "svc/Dockerfile",
      line: 8,
    });
    const image = failing("lifecycle.probes", {
      evidence: { probes: [{ ok: false, type: "image-healthcheck" }] },
    });
    expect(at(image)).toEqual({ path: "svc/Dockerfile", line: 7 });
    const healthcheck = subject({ readiness: { type: "healthcheck" } });
    expect(at(failing("lifecycle.ready"), healthcheck)).toEqual({ path: "svc/Dockerfile", line: 7 });
  });

  it("a declared probe that failed: that probe's line in the inventory", () => {
    const probes = failing("lifecycle.probes", {
      evidence: {
        probes: [
          { ok: true, type: "http" },
          { ok: false, type: "http" },
        ],
      },
    });
    expect(at(probes)).toEqual({ path: "acceptance/inventory.json", line: 10 });
  });

  it("otherwise the inventory field that decides it, else the subject's name line", () => {
    expect(at(failing("containment.capabilities"))).toEqual({ path: "acceptance/inventory.json", line: 7 });
    expect(at(failing("containment.seccomp"))).toEqual({ path: "acceptance/inventory.json", line: 5 });
    expect(at(failing("lifecycle.ready"))).toEqual({ path: "acceptance/inventory.json", line: 5 });
  });

  it("keeps the place a case named itself (the failing build step)", () => {
    const build = failing("lifecycle.build", { location: { path: "svc/Dockerfile", line: 2 } });
    expect(at(build)).toEqual({ path: "svc/Dockerfile", line: 2 });
  });
});
