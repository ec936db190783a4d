import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/setup/prism.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Type tests (*.test-d.ts) run under tsc as part of the run: a wrong type fails it (as openapi-fetch does).
    typecheck: { enabled: true, tsconfig: "./tsconfig.json" },
  },
});
