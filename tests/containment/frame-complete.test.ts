// When a probe's output is a whole report: what lets the engine hand it over before the probe's
// exit (ProbeSpec.complete). Only a trailer that verifies over exactly what precedes it does; a
// report cut short, altered, followed by anything, or a trailer-shaped line alone does not.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { frameComplete } from "../../src/suites/containment/probe.js";

function framed(body: string): string {
  const digest = createHash("sha256").update(body).digest("hex");
  return `${body}Z ${Buffer.byteLength(body)} ${digest}\n`;
}

describe("frameComplete", () => {
  const report = framed("V 1\nP 1\nS Uid:\t0\t0\t0\t0\n");

  it("is whole once the trailer verifies", () => {
    expect(frameComplete(report)).toBe(true);
    expect(frameComplete(framed("V 1\n"))).toBe(true);
    // Every report begins with its version line: a verified frame without it is not one.
    expect(frameComplete(framed(""))).toBe(false);
  });

  it("is not whole while the trailer is missing, cut, or not over what precedes it", () => {
    expect(frameComplete("V 1\nP 1\n")).toBe(false);
    expect(frameComplete(report.slice(0, -1))).toBe(false);
    expect(frameComplete(report.slice(0, -20))).toBe(false);
    // A line dropped, or one altered: the same trailer no longer verifies.
    expect(frameComplete(report.replace("P 1\n", ""))).toBe(false);
    expect(frameComplete(report.replace("P 1", "P 2"))).toBe(false);
    // Anything after the trailer (more output): not a whole report yet.
    expect(frameComplete(`${report}V 1\n`)).toBe(false);
  });

  it("a trailer-shaped line that is not over what precedes it is not whole", () => {
    const forged = `V 1\nZ 4 ${createHash("sha256").update("V 1\n").digest("hex")}\n`;
    expect(frameComplete(`P 9\n${forged}`)).toBe(false);
    expect(frameComplete(`Z 0 ${"0".repeat(64)}\n`)).toBe(false);
  });
});
