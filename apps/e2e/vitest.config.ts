import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One real redis-server for the Redis store's processes; the sandbox is started per file.
    globalSetup: ["test/setup/redis-server.ts"],
    // Real processes and real time: hang guards, not verdicts.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
