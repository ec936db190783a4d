import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The files share their workers: none mocks a module or keeps state for the next, and a fresh
    // worker per file cost about 40% of this package's test CPU.
    isolate: false,
    benchmark: { include: ["bench/*.bench.ts"] },
    // Node loads the files itself: through Vite's module runner every imported binding is a getter,
    // which a per-call benchmark of a few microseconds would measure too.
    experimental: { viteModuleRunner: false },
  },
});
