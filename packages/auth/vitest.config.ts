import { defineConfig } from "vitest/config";

/** Run only with the production build's definition: see the `production` project below. */
const PRODUCTION_TESTS = ["test/production-messages.test.ts"];
/** vi.mock of node:fs/promises replaces the module for the whole worker: these get one each. */
const MOCKED_MODULE_TESTS = ["test/file-lock-faults.test.ts"];

export default defineConfig({
  test: {
    // Hang guards, not verdicts: a machine running two CI jobs transpiles and spawns slowly.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Three files at a time: vitest's default is one fewer than the cores, one on CI's two, and most
    // of these files wait on deadlines and loopback servers rather than use a core (measured alone:
    // one at a time 28.6 s, three 12.6 s, for the same CPU). A task that waits holds one of turbo's
    // three slots, and the chain to the release rehearsal waits behind it.
    maxWorkers: 3,
    // Type tests (test/*.test-d.ts) are not run here: the test script's tsc, before vitest, covers
    // test/ (see tsconfig.json), so a wrong type already fails `pnpm test`; a second tsc run costs CI.
    coverage: {
      provider: "v8",
      include: ["src/**"],
      // Type declarations only: nothing to run.
      exclude: ["src/types.ts"],
      thresholds: { lines: 95, statements: 95, branches: 95, functions: 95 },
      reporter: ["text-summary", "text"],
    },
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          exclude: [...PRODUCTION_TESTS, ...MOCKED_MODULE_TESTS, "**/node_modules/**"],
          // The files share their workers: no file keeps module state or globals for the next one
          // (checked in shuffled order), and a fresh worker per file cost about a third of the run's CPU.
          isolate: false,
        },
      },
      { extends: true, test: { name: "mocked-modules", include: MOCKED_MODULE_TESTS } },
      // The source as the `production` export condition's build compiles it (tsdown.config.ts), so
      // the short forms of the messages run and are covered too.
      {
        extends: true,
        define: { __ENGAGE_VOICE_PRODUCTION__: "true" },
        test: { name: "production", include: PRODUCTION_TESTS },
      },
    ],
  },
});
