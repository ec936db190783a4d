import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/*.test.ts"],
    // Deno's first start compiles the server and our packages: a hang guard, not a verdict.
    testTimeout: 60_000,
  },
});
