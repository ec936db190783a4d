// Interleavings that once broke the session core, kept as examples fast-check runs before its random
// ones: each is a short list of the same actions the simulation draws.
import type { Action } from "./world.js";

const call = (slot: number, api = true): Action => ({
  kind: "call",
  slot,
  tenant: 0,
  api,
  deadlineMs: 20_000,
});
const wait = (ms: number): Action => ({ kind: "advance", ms, drainFirst: true });

/** Two processes share the tenant; the second falls a set behind, then Redis restarts empty. */
const fallBehind: Action[] = [
  call(0, false),
  wait(1),
  call(1, false),
  wait(17_000),
  call(0), // the first renews in the window: sequence 2
  wait(1),
  call(1), // the second takes sequence 2 from the store
  wait(1),
  wait(17_000),
  call(0), // the first renews again: the second's refresh token is spent
  wait(1),
];

export const scenarios: { name: string; actions: Action[] }[] = [
  {
    name: "a store restarted empty, then a fresh process's exchange (sequence 1) beside a stale set",
    actions: [...fallBehind, { kind: "storeRestart" }, call(2, false), wait(1), call(1), wait(1)],
  },
  {
    name: "a read under the lock that fails while the set held is stale",
    actions: [...fallBehind, { kind: "storeFault", fault: "fail", count: 2 }, call(1), wait(1)],
  },
];
