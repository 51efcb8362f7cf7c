// The in-memory engine double as the tests use it: the real-engine tests' base and probe image on
// it, and trusted probes answering as `sh -c` would run their script (echo, exit).
import { MemoryEngine } from "../../src/engine/providers/memory/engine.js";
import { interpret } from "../../src/engine/providers/memory/script.js";

export const MEMORY_BASE = "docker-acceptance/busybox:local";

export function memoryEngine(callTimeoutMs?: number): MemoryEngine {
  const engine = new MemoryEngine(callTimeoutMs);
  engine.addImage(MEMORY_BASE, {
    files: { "/etc/passwd": "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n" },
    // As scripts/engine.sh makes the busybox base: a /tmp anyone may write.
    dirs: { "/tmp": 0o1777 },
  });
  engine.answerProbes((spec) => {
    const p = interpret(["sh", "-c", spec.script.text]);
    return { stdout: p.stdout, stderr: p.stderr, exitCode: p.exit?.code ?? 0 };
  });
  return engine;
}
