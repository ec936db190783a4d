// The simulated world: processes that each run a real tenant pool (the real cycler, locking rules and
// pool), one token host and one shared store (both models), one clock. `step` applies one action;
// after each step `check` states what must always hold. Nothing here decides what the SDK does: it
// only delivers requests, moves time, injects faults and watches.
import type fc from "fast-check";
import { exchangeBudget } from "../../src/exchange-limiter.js";
import { createTenantPool, type TenantPool, type TokenManager } from "../../src/index.js";
import { settle, simClock } from "./clock.js";
import { type Sender, type StoreFault, sharedStore } from "./shared-store.js";
import { API_PATH, type HostFault, parentTokenOf, TOKEN_LIFETIME_S, tokenHost } from "./token-host.js";

export const BASE = "https://engage.sim.test";
export const TENANTS = ["t0", "t1"] as const;
export const PROCESS_SLOTS = 3;

export type Action =
  | { kind: "call"; slot: number; tenant: number; api: boolean; deadlineMs: number }
  | { kind: "advance"; ms: number; drainFirst: boolean }
  | { kind: "release"; n: number }
  | { kind: "crash"; slot: number }
  | { kind: "close"; slot: number }
  | { kind: "start"; slot: number }
  | { kind: "logout"; slot: number; tenant: number }
  | { kind: "hostFault"; fault: HostFault }
  | { kind: "storeFault"; fault: StoreFault; count: number }
  | { kind: "storeFlaky"; share: number }
  | { kind: "storeRestart" }
  | { kind: "failover"; lost: number }
  | { kind: "jump"; slot: number; ms: number };

interface Process extends Sender {
  pool: TenantPool;
  offset: number;
  /** When close() was called, in the order of the world's events (`serial`). */
  closeCalledAt?: number;
  closedAt?: number;
  /** The managers this process's callers were handed: a caller may keep one past close(). */
  managers: Map<string, TokenManager>;
}

interface Caller {
  id: string;
  what: string;
  /** In the order of the world's events, as `closeCalledAt` is. */
  startedAt: number;
  deadlineAt: number;
  settled: boolean;
}

/** A caller's own deadline passed: it gave up, as a request handler does. */
const GAVE_UP = Object.freeze({ name: "GaveUp", message: "the caller gave up at its deadline" });

/** Seeded random numbers (mulberry32): the world's own choices replay with its seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function createWorld(scheduler: fc.Scheduler, options: { healthy: boolean; seed: number }) {
  const { healthy } = options;
  const clock = simClock();
  const lines: string[] = [];
  const violations: string[] = [];
  const trace = (line: string) => lines.push(`${clock.now() - START} ms ${line}`);
  const violation = (what: string) => {
    if (ended) {
      return;
    }
    violations.push(what);
    trace(`VIOLATION ${what}`);
  };
  const START = clock.now();
  const arrival = (label: string) => scheduler.schedule(Promise.resolve(label), label);
  const host = tokenHost({ now: clock.now, arrival, violation, trace });
  const store = sharedStore({ clock, arrival, trace, random: seeded(options.seed) });
  const callers = new Map<string, Caller>();
  // One exchange budget for every process, as redisExchangeBudget is: the real sliding minute on the
  // world's clock, each take a command the scheduler delivers.
  const budget = exchangeBudget(8, clock);
  const sharedBudget = {
    take: async () => {
      await arrival("budget take");
      return budget.take();
    },
    blockFor: (ms: number) => budget.blockFor(ms),
  };
  let serial = 0;
  const slots: Process[] = [];
  // What a dead process waits for: nothing ever answers it, until the run ends and lets it all go
  // (a call's real deadline timer would otherwise hold the whole world for its timeoutMs).
  const graves = new Set<(reason: unknown) => void>();
  let ended = false;
  const never = () =>
    new Promise<never>((_, reject) => {
      graves.add(reject);
    });

  function fetchOf(proc: Process) {
    return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request ? input : new Request(input, init);
      const what = `${request.method} ${new URL(request.url).pathname}`;
      const signal = init?.signal ?? request.signal;
      if (proc.dead) {
        return never();
      }
      // A fetch given an aborted signal sends nothing.
      if (signal?.aborted) {
        return Promise.reject(signal.reason);
      }
      if (proc.closedAt !== undefined) {
        violation(`p${proc.id} sent ${what} after its close() resolved`);
      }
      const caller = callers.get(request.headers.get("x-sim-caller") ?? "");
      if (caller && proc.closeCalledAt !== undefined && caller.startedAt >= proc.closeCalledAt) {
        violation(`p${proc.id} sent ${what} for a caller that came after close()`);
      }
      return new Promise<Response>((resolve, reject) => {
        // Removed once answered: Node keeps a signal made by AbortSignal.any alive while it has listeners.
        const onAbort = () => reject(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        host
          .handle(request)
          .then(resolve, reject)
          .finally(() => signal?.removeEventListener("abort", onAbort));
      });
    };
  }

  function startProcess(slot: number): Process {
    const id = ++serial;
    const proc = { id, dead: false, offset: 0, managers: new Map() } as unknown as Process;
    const log = (level: string) => (message: string) => trace(`p${id} ${level}: ${message}`);
    proc.pool = createTenantPool({
      rcAccessToken: (tenant) => parentTokenOf(tenant),
      store: (tenant) => store.storeFor(tenant, proc),
      maxTenants: 2,
      idleMs: 30_000,
      renewalsAtOnce: 1,
      exchangeBudget: sharedBudget,
      manager: {
        baseUrl: BASE,
        fetch: fetchOf(proc),
        clock: { now: () => clock.now() + proc.offset },
        sleep: clock.sleep,
        random: () => 0.5,
        logger: { debug: log("debug"), warn: log("warn"), error: log("error") },
        // A call's deadline is also a real timer, which guards an answer's body until it passes: long
        // enough never to fire within a run (a few milliseconds), short enough that a soak does not
        // hold thousands of ended worlds through it.
        timeoutMs: 5_000,
      },
    });
    slots[slot] = proc;
    trace(`p${id} started in slot ${slot}`);
    return proc;
  }

  for (let slot = 0; slot < PROCESS_SLOTS; slot++) {
    startProcess(slot);
  }

  const alive = (proc: Process) => !proc.dead && proc.closedAt === undefined;

  function call(proc: Process, tenant: string, api: boolean, deadlineMs: number) {
    let manager = proc.managers.get(tenant);
    if (proc.closeCalledAt === undefined) {
      manager = proc.pool.get(tenant);
      proc.managers.set(tenant, manager);
    }
    if (!manager) {
      return;
    }
    const id = String(++serial);
    const caller: Caller = {
      id,
      what: `caller ${id} (p${proc.id}, ${tenant}, ${api ? "API call" : "getAccessToken"})`,
      startedAt: Number(id),
      deadlineAt: clock.now() + deadlineMs,
      settled: false,
    };
    callers.set(id, caller);
    const controller = new AbortController();
    const cancel = clock.after(deadlineMs, () => controller.abort(GAVE_UP));
    const { signal } = controller;
    const outcome: Promise<string> = api
      ? manager
          .fetch(`${BASE}${API_PATH}`, { signal, headers: { "x-sim-caller": id } })
          .then(async (response) => {
            if (response.status === 200) {
              const [account] = (await response.json()) as { tenant: string }[];
              if (account?.tenant !== tenant) {
                violation(`${caller.what} was served ${account?.tenant}'s data`);
              }
            }
            return `answered ${response.status}`;
          })
      : manager.getAccessToken({ signal }).then((token) => {
          const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
          if (claims.tenant !== tenant) {
            violation(`${caller.what} was handed ${claims.tenant}'s token`);
          }
          return "token";
        });
    outcome.then(
      (result) => {
        caller.settled = true;
        cancel();
        trace(`${caller.what}: ${result}`);
        if (healthy && result !== "token" && result !== "answered 200") {
          violation(`${caller.what} ${result} with a healthy host and store`);
        }
      },
      (error: { code?: unknown; name?: string; message?: string }) => {
        caller.settled = true;
        cancel();
        const code = typeof error?.code === "string" ? error.code : undefined;
        trace(`${caller.what}: ${code ?? error?.name}: ${error?.message}`);
        if (error !== GAVE_UP && code === undefined) {
          violation(`${caller.what} got an untyped error: ${error?.name}: ${error?.message}`);
        }
        // A caller of a manager it kept past close() hears `closed`: that is no failure.
        if (healthy && code !== "closed") {
          violation(`${caller.what} failed (${code ?? error?.name}) with a healthy host and store`);
        }
      },
    );
  }

  /** Releases every request and command the scheduler holds, and whatever they set off. */
  async function releaseAll(limit = 10_000) {
    for (let n = 0; n < limit && scheduler.count() > 0; n++) {
      await scheduler.waitOne();
      await settle();
    }
  }

  async function step(action: Action): Promise<void> {
    const proc = "slot" in action ? slots[action.slot] : undefined;
    switch (action.kind) {
      case "call":
        if (proc && !proc.dead) {
          call(proc, TENANTS[action.tenant] as string, action.api, action.deadlineMs);
        }
        break;
      case "advance":
        if (healthy || action.drainFirst) {
          await releaseAll();
        }
        await clock.advance(action.ms, async () => {
          await settle();
          if (healthy) {
            await releaseAll();
          }
        });
        break;
      case "release":
        await releaseAll(action.n);
        break;
      case "crash":
        if (proc && alive(proc)) {
          proc.dead = true;
          trace(`p${proc.id} crashed`);
          startProcess(action.slot);
        }
        break;
      case "close":
        if (proc && alive(proc) && proc.closeCalledAt === undefined) {
          proc.closeCalledAt = ++serial;
          trace(`p${proc.id} close() called`);
          proc.pool.close({ timeoutMs: 5_000 }).then(async (drained) => {
            // Callers that waited for a drained renewal send in the turn close() resolves in; never later.
            await settle();
            // A process that crashed meanwhile never saw its close() resolve.
            if (proc.dead) {
              return;
            }
            proc.closedAt = clock.now();
            trace(`p${proc.id} close() resolved: ${drained ? "drained" : "not drained"}`);
            // One that was not drained may still wait on a command that holds its lock until it lands.
            if (drained && store.holders().includes(proc)) {
              violation(`p${proc.id} still holds a lock after its close() resolved, drained`);
            }
          });
        }
        break;
      case "start":
        if (proc && proc.closedAt !== undefined) {
          startProcess(action.slot);
        }
        break;
      case "logout":
        if (proc && alive(proc) && proc.closeCalledAt === undefined) {
          const tenant = TENANTS[action.tenant] as string;
          trace(`p${proc.id} logout of ${tenant}`);
          proc.pool
            .get(tenant)
            .logout()
            .catch((error: { code?: string }) => trace(`p${proc.id} logout failed: ${error.code}`));
        }
        break;
      case "hostFault":
        trace(`host fault queued: ${action.fault}`);
        host.fault(action.fault);
        break;
      case "storeFault":
        trace(`store faults queued: ${action.count} x ${action.fault}`);
        for (let n = 0; n < action.count; n++) {
          store.fault(action.fault);
        }
        break;
      case "storeFlaky":
        store.flaky(action.share);
        break;
      case "storeRestart":
        store.restartEmpty();
        break;
      case "failover":
        for (const value of store.failover(action.lost)) {
          host.excuse((JSON.parse(value) as { refreshToken?: string }).refreshToken);
        }
        break;
      case "jump":
        if (proc) {
          proc.offset += action.ms;
          trace(`p${proc.id} clock jumped ${action.ms} ms`);
        }
        break;
    }
    await settle();
  }

  /** What must hold after every step. */
  function check(): void {
    for (const caller of callers.values()) {
      if (!caller.settled && clock.now() > caller.deadlineAt) {
        violation(`${caller.what} still waits past its deadline`);
        caller.settled = true;
      }
    }
    if (violations.length > 0) {
      throw new Error(`${violations.join("\n")}\n\ntrace:\n${lines.slice(-150).join("\n")}`);
    }
  }

  /** Lets every request, command and timer run out, then checks the healthy world's token calls. */
  async function finish(): Promise<void> {
    for (let round = 0; round < 40; round++) {
      await releaseAll();
      await clock.advance(1_000, settle);
      check();
    }
    await releaseAll();
    check();
    if (healthy) {
      // Each renewal gives a token fresh for most of its lifetime: one token call per expiry at most,
      // whatever the number of processes, plus the first exchange.
      const freshMs = TOKEN_LIFETIME_S * 1000 * 0.75;
      const allowed = Math.floor((clock.now() - START) / freshMs) + 1;
      for (const tenant of TENANTS) {
        if (host.tokenCalls(tenant) > allowed) {
          violation(
            `${tenant} made ${host.tokenCalls(tenant)} token calls in ${clock.now() - START} ms (at most ${allowed})`,
          );
        }
      }
      check();
    }
  }

  /** Lets go of everything a dead process still waits for: nothing is checked after this. */
  function dispose(): void {
    ended = true;
    for (const reject of graves) {
      reject(new Error("the simulated world ended"));
    }
    graves.clear();
    store.dispose();
  }

  return { step, check, finish, dispose, seen: host.seen };
}
