import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Hang guards, not verdicts: a machine running two CI jobs transpiles and spawns slowly.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Type tests (test/*.test-d.ts) are not run here: the typecheck task's tsc covers test/ (see
    // tsconfig.json), so a wrong type already fails `pnpm test` there, and a second tsc run costs CI.
    coverage: {
      provider: "v8",
      include: ["src/**"],
      // Type declarations only: nothing to run.
      exclude: ["src/types.ts"],
      thresholds: { lines: 95, statements: 95, branches: 95, functions: 95 },
      reporter: ["text-summary", "text"],
    },
  },
});
