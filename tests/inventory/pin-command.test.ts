// `docker-acceptance pin` as a maintainer runs it.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runCommandLine } from "../../src/cli/main.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("pin", () => {
  let ws: string;
  let out: string;
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), "da-pin-"));
    out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(ws, { recursive: true, force: true });
  });

  it("rewrites stale pins, says what changed, and leaves matching ones alone", async () => {
    await writeFile(path.join(ws, "a.txt"), "alpha\n");
    await writeFile(path.join(ws, "b.txt"), "beta\n");
    const inv = path.join(ws, "inv.json");
    const text = `{"schemaVersion":1,"subjects":[{"name":"x","image":"x"}],"artifacts":[
  {"path":"a.txt","sha256":"${sha("alpha\n")}"},
  {"path":"b.txt","sha256":""}
]}`;
    await writeFile(inv, text);
    expect(await runCommandLine("pin", ["--inventory", inv, "--workspace", ws])).toBe(0);
    expect(out).toBe(
      [
        `unchanged a.txt  ${sha("alpha\n")}`,
        `pinned    b.txt  ${sha("beta\n")} (was empty)`,
        `${inv}: rewrote 1 of 2 pins`,
        "",
      ].join("\n"),
    );
    expect(await readFile(inv, "utf8")).toBe(text.replace('"sha256":""', `"sha256":"${sha("beta\n")}"`));
  });
});
