import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Three files at a time: vitest's default is one fewer than the cores, one on CI's two, and these
    // files mostly wait on child processes and servers rather than use a core (measured alone: one
    // at a time 35 s, three 16 s, for the same CPU). A task that waits holds one of turbo's slots.
    maxWorkers: 3,
    // The files share their workers: none keeps module state or globals for the next one (checked in
    // shuffled order), and a fresh worker per file costs CPU that CI's two cores do not have.
    isolate: false,
    // One real redis-server for the Redis store's processes; the sandbox is started per file.
    globalSetup: [require.resolve("@engage-voice/test-kit/redis-global-setup")],
    // Real processes and real time: hang guards, not verdicts.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
