// The run id and the inventory's digest without node:crypto at start-up (src/crypto.ts): the id is
// `da-` and 32 lowercase hex from the kernel's generator, fresh each time, node:crypto's where there
// is no /dev/urandom; the digest is node:crypto's sha256, taken when first read.
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { randomHex, sha256Hex } from "../../src/crypto.js";
import { isRunId, newRunId } from "../../src/engine/ownership.js";
import { parseInventoryText } from "../../src/inventory/load.js";

describe("randomness and digests without loading node:crypto first", () => {
  it("a run id is da- and 32 lowercase hex, a fresh one each time", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newRunId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isRunId(id)).toBe(true);
  });

  it("where /dev/urandom cannot be read, node:crypto draws the bytes", async () => {
    vi.resetModules();
    vi.doMock("node:fs", async (original) => ({
      ...(await original<typeof import("node:fs")>()),
      openSync: () => {
        throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
      },
    }));
    const { randomHex: fallback } = await import("../../src/crypto.js");
    expect(fallback(16)).toMatch(/^[0-9a-f]{32}$/);
    vi.doUnmock("node:fs");
    vi.resetModules();
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("the inventory's sha256 is node:crypto's, of the text's UTF-8 bytes, taken when first read", async () => {
    const text = JSON.stringify({
      schemaVersion: 1,
      description: "é",
      subjects: [{ name: "a", image: "busybox" }],
    });
    const loaded = await parseInventoryText("inventory.json", text);
    const expected = createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
    expect(sha256Hex(text)).toBe(expected);
    expect(loaded.sha256).toBe(expected);
    expect({ ...loaded }.sha256).toBe(expected);
    expect(JSON.parse(JSON.stringify(loaded)).sha256).toBe(expected);
  });
});
