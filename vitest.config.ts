import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Docker tests share one engine on 2 cores: files run in parallel, but not too many.
    maxWorkers: 3,
    reporters: process.env.CI ? ["default"] : ["default"],
    // GitHub's workflow parser imports its JSON schemas without `with { type: "json" }`, which
    // Node refuses; transformed by Vite instead (tests/action/workflow-lint.test.ts).
    server: { deps: { inline: ["@actions/workflow-parser"] } },
  },
});
