// What the simulation draws: callers, time, lifecycles and faults, weighted towards what happens most.
import fc from "fast-check";
import { type Action, PROCESS_SLOTS, TENANTS } from "./world.js";

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
export const healthyAction: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: callsWithin(10_000), weight: 6 },
  { arbitrary: advance, weight: 3 },
  { arbitrary: release, weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom("close" as const, "start" as const), slot }), weight: 1 },
);

/** A world where anything may go wrong: the invariants hold all the same. */
export const faultyAction: fc.Arbitrary<Action> = fc.oneof(
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
  {
    arbitrary: fc.record({
      kind: fc.constant("storeFlaky" as const),
      share: fc.constantFrom(0, 0, 0.3, 0.6),
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
