import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Two files at a time: vitest's default is one fewer than the cores, one on CI's two, and these
    // files mostly wait on child processes, servers and browsers rather than use a core.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
