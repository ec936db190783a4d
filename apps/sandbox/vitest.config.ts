import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Type tests (*.test-d.ts) run under tsc as part of the run: a wrong type fails it.
    typecheck: { enabled: true, tsconfig: "./tsconfig.json", include: ["test/**/*.test-d.ts"] },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
