import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The files share their workers: none keeps module state or globals for the next one (checked in
    // shuffled order), and a fresh worker per file costs CPU that CI's two cores do not have.
    isolate: false,
    // Type tests (test/*.test-d.ts) are not run here: the test script's tsc, before vitest, covers
    // test/ (see tsconfig.json), so a wrong type already fails `pnpm test`; a second tsc run costs CI.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
