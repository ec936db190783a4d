import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Type tests (*.test-d.ts) run under tsc as part of the run: a wrong type fails it.
    typecheck: { enabled: true, tsconfig: "./tsconfig.json" },
    coverage: {
      provider: "v8",
      include: ["src/**"],
      // Type declarations only: nothing to run.
      exclude: ["src/types.ts"],
      thresholds: { lines: 95 },
      reporter: ["text-summary", "text"],
    },
  },
});
