// A deterministic simulation of the session core (FoundationDB's and TigerBeetle's way of finding the
// bug no example thought of): processes running the real tenant pool share a store with a lock and a
// token host, both models, under one seeded clock and scheduler (fast-check's), with crashes, close(),
// logout(), clock jumps, callers that give up, and the faults of the host and the store. A failure
// prints its seed, its path and the shrunk list of actions with the world's trace; replay it with
// `pnpm test:sim --seed <seed> --path <path>`, soak with `pnpm test:sim --runs <n>`.
import fc from "fast-check";
import { describe, it } from "vitest";
import { type Action, createWorld, PROCESS_SLOTS, TENANTS } from "./world.js";

const slot = fc.nat(PROCESS_SLOTS - 1);
const tenant = fc.nat(TENANTS.length - 1);

/** Callers with deadlines from impatient to patient; a healthy world's wait for a lock takes up to its wait. */
const callsWithin = (min: number) =>
  fc.record({
    kind: fc.constant("call" as const),
    slot,
    tenant,
    api: fc.boolean(),
    deadlineMs: fc.integer({ min, max: 20_000 }),
  });
const calls = callsWithin(100);
/** Time moves; most often after every request and command in flight has arrived, as on a quick network. */
const advance = fc.record({
  kind: fc.constant("advance" as const),
  ms: fc.integer({ min: 1, max: 15_000 }),
  drainFirst: fc.boolean(),
});
const release = fc.record({ kind: fc.constant("release" as const), n: fc.integer({ min: 1, max: 12 }) });
const lifecycle = fc.oneof(
  fc.record({ kind: fc.constantFrom("crash" as const, "close" as const, "start" as const), slot }),
);

/** A world where the host and the store work: no caller error, one token call per expiry. */
const healthyAction: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: callsWithin(10_000), weight: 6 },
  { arbitrary: advance, weight: 3 },
  { arbitrary: release, weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom("close" as const, "start" as const), slot }), weight: 1 },
);

/** A world where anything may go wrong: the invariants hold all the same. */
const faultyAction: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: calls, weight: 6 },
  { arbitrary: advance, weight: 3 },
  { arbitrary: release, weight: 4 },
  { arbitrary: lifecycle, weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("logout" as const), slot, tenant }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("hostFault" as const),
      fault: fc.constantFrom("lose" as const, "reset" as const, "429" as const, "503" as const),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      // A few commands in a row fail or hang: a connection that drops, a server busy for a while.
      kind: fc.constant("storeFault" as const),
      fault: fc.constantFrom("fail" as const, "hang" as const),
      count: fc.integer({ min: 1, max: 3 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("storeRestart" as const) }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant("failover" as const), lost: fc.integer({ min: 1, max: 3 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("jump" as const),
      slot,
      ms: fc.integer({ min: -20_000, max: 20_000 }),
    }),
    weight: 1,
  },
);

/** The budget of runs: CI's by default, a soak's from `pnpm test:sim --runs N`; a replay from its seed. */
const budget = (runs: number): fc.Parameters<unknown> => {
  const seed = process.env.SIM_SEED;
  const path = process.env.SIM_PATH;
  return {
    numRuns: Number(process.env.SIM_RUNS ?? runs),
    ...(seed === undefined ? {} : { seed: Number(seed) }),
    ...(path === undefined ? {} : { path }),
    endOnFailure: process.env.SIM_SHRINK === "0",
  };
};

const simulate = (actions: fc.Arbitrary<Action>, healthy: boolean): fc.IAsyncProperty<unknown> =>
  fc.asyncProperty(
    fc.scheduler(),
    fc.array(actions, { minLength: 1, maxLength: 80, size: "max" }),
    async (scheduler, list) => {
      const world = createWorld(scheduler, { healthy });
      for (const action of list) {
        await world.step(action);
        world.check();
      }
      await world.finish();
    },
  );

/** A hang guard that grows with a soak's runs (a run takes a few milliseconds). */
const TIME_LIMIT_MS = Math.max(120_000, Number(process.env.SIM_RUNS ?? 0) * 100);

/** fast-check's report, headed by the one command that replays the failure, shrunk. */
async function assertWithReplay(property: fc.IAsyncProperty<unknown>, runs: number) {
  try {
    await fc.assert(property, budget(runs));
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
  it("with a healthy host and store: no caller error, one token call per expiry, nothing after close", async () => {
    await assertWithReplay(simulate(healthyAction, true), 60);
  }, TIME_LIMIT_MS);

  it("under every fault: no refresh token presented twice, no request after close, every caller ends in time", async () => {
    await assertWithReplay(simulate(faultyAction, false), 150);
    console.log("STATS", JSON.stringify((globalThis as any).S));
  }, TIME_LIMIT_MS);
});
