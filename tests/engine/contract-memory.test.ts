// The engine contract against the in-memory double, plus what only a double can do: faults on demand.
import { describe, expect, it } from "vitest";
import type { EngineError } from "../../src/errors.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";
import { engineContract, specFor } from "./contract.js";

// The double applies everything it is given: no deviation.
engineContract("in-memory double", () => ({
  engine: memoryEngine(),
  image: MEMORY_BASE,
  knownDeviations: [],
}));

describe("in-memory double: injected faults", () => {
  it("a hanging call ends at its deadline as a timeout", async () => {
    const engine = memoryEngine(200);
    engine.inject("inspect", "hang", 1);
    const id = await engine.create(specFor("da-x", "h", MEMORY_BASE, "sleep 300"));
    const started = Date.now();
    const err = await engine.inspect(id).catch((e: unknown) => e);
    expect((err as EngineError).kind).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // Only the next call hung: the one after answers.
    expect((await engine.inspect(id)).id).toBe(id);
  });

  it("a hanging call ends at once when the caller's signal aborts", async () => {
    const engine = memoryEngine();
    engine.inject("start", "hang");
    const id = await engine.create(specFor("da-x", "a", MEMORY_BASE, "sleep 300"));
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("SIGINT")), 50);
    const err = await engine.start(id, ac.signal).catch((e: unknown) => e);
    expect((err as EngineError).kind).toBe("aborted");
  });

  it("a failing call is an engine error; a refused one says the engine is unreachable", async () => {
    const engine = memoryEngine();
    engine.inject("create", "fail", 1);
    engine.inject("ping", "refuse", 1);
    const err = await engine.create(specFor("da-x", "f", MEMORY_BASE, "sleep 300")).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "engine", statusCode: 500 });
    await expect(engine.ping()).rejects.toMatchObject({ kind: "unreachable" });
    await engine.ping();
    expect(engine.calls.filter((c) => c === "ping")).toHaveLength(2);
  });
});
