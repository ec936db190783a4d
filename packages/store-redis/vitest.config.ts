import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: [require.resolve("@engage-voice/test-kit/redis-global-setup")],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
