// A deterministic simulation of the session core (FoundationDB's and TigerBeetle's way of finding the
// bug no example thought of): processes running the real tenant pool share a store with a lock and a
// token host, both models, under one seeded clock and scheduler (fast-check's), with crashes, close(),
// logout(), clock jumps, callers that give up, and the faults of the host and the store. A failure
// prints its seed, its path and the shrunk list of actions with the world's trace; replay it with
// `pnpm test:sim --seed <seed> --path <path>`, soak with `pnpm test:sim --runs <n>`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { faultyAction, healthyAction } from "./actions.js";
import { scenarios } from "./scenarios.js";
import { type Action, createWorld } from "./world.js";

/** The seed of CI's budget; a soak that finds a failure its budget misses adds it to scenarios.ts. */
const CI_SEED = 20_261_128;

/** The budget of runs: CI's by default, a soak's from `pnpm test:sim --runs N`; a replay from its seed. */
const budget = (runs: number): fc.Parameters<[fc.Scheduler, Action[], number]> => {
  const soak = process.env.SIM_RUNS !== undefined;
  // CI's budget runs the same seeds every time, so that it passes every run or never; a soak draws new ones.
  const seed = process.env.SIM_SEED ?? (soak ? undefined : String(CI_SEED));
  const path = process.env.SIM_PATH;
  return {
    numRuns: Number(process.env.SIM_RUNS ?? runs),
    ...(seed === undefined ? {} : { seed: Number(seed) }),
    ...(path === undefined ? {} : { path }),
    endOnFailure: process.env.SIM_SHRINK === "0",
  };
};

/** Token calls and faults the runs made, summed: a soak prints them. */
const exercised: Record<string, number> = {};

const simulate = (
  actions: fc.Arbitrary<Action>,
  healthy: boolean,
): fc.IAsyncProperty<[fc.Scheduler, Action[], number]> =>
  fc.asyncProperty(
    fc.scheduler(),
    fc.array(actions, { minLength: 1, maxLength: 80, size: "max" }),
    fc.integer(),
    async (scheduler, list, seed) => {
      const world = createWorld(scheduler, { healthy, seed });
      try {
        for (const action of list) {
          await world.step(action);
          world.check();
        }
        await world.finish();
      } finally {
        world.dispose();
      }
      for (const [what, count] of Object.entries(world.seen)) {
        exercised[what] = (exercised[what] ?? 0) + count;
      }
    },
  );

/** A hang guard that grows with a soak's runs (a run takes a few milliseconds). */
const TIME_LIMIT_MS = Math.max(120_000, Number(process.env.SIM_RUNS ?? 0) * 100);

/** fast-check's report, headed by the one command that replays the failure, shrunk. */
async function assertWithReplay(
  property: fc.IAsyncProperty<[fc.Scheduler, Action[], number]>,
  runs: number,
  examples: Action[][] = [],
) {
  try {
    // Each known interleaving first: its actions drain what is in flight before time moves.
    const inOrder = fc.sample(fc.scheduler(), { numRuns: 1, seed: 0 })[0] as fc.Scheduler;
    await fc.assert(property, {
      ...budget(runs),
      examples: examples.map((actions) => [inOrder, actions, 0]),
    });
  } catch (error) {
    const found = /seed: (-?\d+), path: "([^"]+)"/.exec(String((error as Error).message));
    if (found) {
      (error as Error).message =
        `replay: pnpm test:sim --seed=${found[1]} --path=${found[2]}\n${(error as Error).message}`;
    }
    throw error;
  }
}

describe("the session core, simulated", () => {
  it(
    "with a healthy host and store: no caller error, one token call per expiry, nothing after close",
    async () => {
      await assertWithReplay(simulate(healthyAction, true), 200);
    },
    TIME_LIMIT_MS,
  );

  it(
    "under every fault: no refresh token presented twice, no request after close, every caller ends in time",
    async () => {
      await assertWithReplay(
        simulate(faultyAction, false),
        600,
        scenarios.map((s) => s.actions),
      );
      if (process.env.SIM_RUNS) {
        console.log(`exercised over both properties: ${JSON.stringify(exercised)}`);
      }
      // A simulation that never refreshes, or never loses an answer, proves little: its budget must
      // keep reaching them.
      expect(exercised.refreshes).toBeGreaterThan(100);
      expect(exercised.lostAnswers).toBeGreaterThan(10);
    },
    TIME_LIMIT_MS,
  );
});
