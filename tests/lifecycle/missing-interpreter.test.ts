// "exec /x: no such file or directory" for a file that is there: the file is read from the
// container to say what the kernel could not find (the same log line on Docker and Podman).
import { describe, expect, it } from "vitest";
import { newRunId } from "../../src/engine/ownership.js";
import { missingInterpreter } from "../../src/suites/lifecycle/diagnose.js";
import { specFor } from "../engine/contract.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

async function containerWith(files: Record<string, string>) {
  const engine = memoryEngine();
  engine.addImage("subject:local", { files });
  const id = await engine.create({
    ...specFor(newRunId(), "s", MEMORY_BASE, "true"),
    image: "subject:local",
  });
  return { engine, id };
}

describe("missingInterpreter", () => {
  it("names Windows line endings, a missing #! interpreter and a dynamic loader the image lacks", async () => {
    const { engine, id } = await containerWith({
      "/crlf.sh": "#!/bin/sh\r\necho hi\r\n",
      "/zsh.sh": "#!/usr/bin/zsh -e\necho hi\n",
      "/app": "\x7fELF\x02\x01\x01",
    });
    const crlf = await missingInterpreter(engine, id, "exec /crlf.sh: no such file or directory\n");
    expect(crlf?.cause).toBe(
      '/crlf.sh has Windows (CRLF) line endings, so its interpreter is read as "/bin/sh\\r", which does not exist',
    );
    expect(crlf?.fix).toMatch(/LF line endings/);
    const zsh = await missingInterpreter(engine, id, "exec /zsh.sh: no such file or directory");
    expect(zsh?.cause).toBe("/zsh.sh starts with #!/usr/bin/zsh, which is not in the image");
    const elf = await missingInterpreter(engine, id, "exec /app: no such file or directory");
    expect(elf?.cause).toMatch(/^\/app is a dynamically linked program whose loader/);
  });

  it("claims nothing when the file is not there, is not a script or program, or the log says something else", async () => {
    const { engine, id } = await containerWith({ "/data.txt": "hello\n" });
    expect(await missingInterpreter(engine, id, "exec /gone.sh: no such file or directory")).toBeUndefined();
    expect(await missingInterpreter(engine, id, "exec /data.txt: no such file or directory")).toBeUndefined();
    expect(await missingInterpreter(engine, id, "open /data.txt: no such file or directory")).toBeUndefined();
  });
});
