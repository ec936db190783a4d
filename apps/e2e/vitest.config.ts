import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Two files at a time: vitest's default is one fewer than the cores, one on CI's two, and these
    // files mostly wait on child processes, servers and browsers rather than use a core.
    maxWorkers: 2,
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
