import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The files share their workers: none mocks a module or keeps state for the next (checked in
    // shuffled order), and a fresh worker per file cost about 40% of this package's test CPU.
    isolate: false,
  },
});
