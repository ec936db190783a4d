import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/setup/prism.ts"],
    testTimeout: 20_000,
  },
});
