import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
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
