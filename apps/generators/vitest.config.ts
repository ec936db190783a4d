import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Real generators, Prism and the sandbox in real processes: hang guards, not verdicts.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
