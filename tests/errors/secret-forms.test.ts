// A registered secret is hidden in every form it is stored or sent in: raw, base64, and the
// basic-auth pair of git's credential header (`x-access-token:<token>`, as actions/checkout
// persists the job's token in .git/config); an Authorization value of any scheme is cut too.
import { describe, expect, it } from "vitest";
import { onSecret, redact, registerSecret } from "../../src/errors.js";

describe("secret forms", () => {
  const token = "ghs_secretFormsTestToken0123456789abcd";
  const announced: string[] = [];
  onSecret((v) => announced.push(v));
  registerSecret(token, { runnerMasks: true });
  const b64 = (s: string) => Buffer.from(s).toString("base64");

  it("redacts the token raw, base64, and as git's basic-auth header", () => {
    for (const form of [token, b64(token), b64(`x-access-token:${token}`)]) {
      const out = redact(`before ${form} after`);
      expect(out, form).not.toContain(form.replace(/=+$/, "").slice(0, 24));
      expect(out).toMatch(/^before .*after$/);
    }
  });

  it("announces the encoded forms to the runner, never the raw token it masks already", () => {
    expect(announced).not.toContain(token);
    expect(announced).toContain(b64(`x-access-token:${token}`).replace(/=+$/, ""));
  });

  it("cuts an Authorization value of the basic scheme it was never told of", () => {
    expect(redact("AUTHORIZATION: basic dXNlcjpodW50ZXIyaHVudGVyMg==")).not.toContain("dXNlcjpodW50ZXIy");
  });
});
