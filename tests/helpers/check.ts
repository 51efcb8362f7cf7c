// The `check` command run in-process (no child process to start per call), its stdout captured.
import { vi } from "vitest";
import { runCommandLine } from "../../src/cli/main.js";

export async function runCheck(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    return { code: await runCommandLine("check", argv), out };
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
}
