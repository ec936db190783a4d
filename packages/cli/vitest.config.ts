import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Real child processes against a real sandbox: generous limits, never a timing assertion.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
