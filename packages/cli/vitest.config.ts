import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Three files at a time: vitest's default is one fewer than the cores, one on CI's two, and these
    // files mostly wait on child processes and servers rather than use a core (measured alone: two at
    // a time 20 s, three 15.5 s, for the same CPU). A task that waits holds one of turbo's slots.
    maxWorkers: 3,
    // The files share their workers (a fresh one per file cost about 15% of the run's CPU): no file
    // keeps module state or globals for the next one, and test/per-file.ts resets, for each file, the
    // transcript the secret scan reads and removes the temp homes.
    isolate: false,
    setupFiles: ["test/per-file.ts"],
    // Real child processes against a real sandbox: generous limits, never a timing assertion.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
