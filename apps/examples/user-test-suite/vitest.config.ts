import { defineConfig } from "vitest/config";

// Two projects, because they need different Node versions: the suite runs on every Node our code
// supports (20, 22, 24), the contract check on Prism 5.16.0, which needs Node 24.18 or newer. `vitest
// run` runs both; the CI workflow runs each where it can (test/workflow.test.ts holds it to that).
export default defineConfig({
  test: {
    projects: [
      { test: { name: "suite", include: ["test/*.test.ts"] } },
      {
        test: {
          name: "contract",
          include: ["test/contract/*.test.ts"],
          // Prism's first start reads and compiles the whole document: a hang guard, not a verdict.
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
