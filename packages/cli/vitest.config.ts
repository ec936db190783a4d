import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Two files at a time: vitest's default is one fewer than the cores, one on CI's two, and these
    // files mostly wait on child processes, servers and browsers rather than use a core.
    maxWorkers: 2,
    // Isolated (vitest's default): test/helpers.ts keeps each file's transcript for the secret scan
    // and registers the clean-up of its temp homes when a file first imports it.
    isolate: true,
    // Real child processes against a real sandbox: generous limits, never a timing assertion.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
