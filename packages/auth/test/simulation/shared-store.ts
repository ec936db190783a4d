// A model of a store with a lock shared by several processes (Redis as redisStore uses it): a value per
// tenant, a lock per tenant with a time to live that its holder's heartbeat and `held()` extend, and
// the faults of a real one: a command that fails, one that hangs until its deadline, a restart with
// nothing, a failover to a replica that missed the last writes. Every command waits for the scheduler.
import type { LockHold, TokenStore } from "../../src/index.js";
import { lockingRules } from "../../src/store-kit.js";
import type { SimClock } from "./clock.js";

export const LOCK_TTL_MS = 3_000;
const LOCK_WAIT_MS = 10_000;
const LOCK_POLL_MS = 50;
/** A hung command ends at its deadline, as redisStore's commandTimeoutMs ends it. */
const COMMAND_DEADLINE_MS = 1_000;

export type StoreFault = "fail" | "hang";

/** What the store needs of a process: whether it is alive (a dead one sends no command). */
export interface Sender {
  id: number;
  dead: boolean;
}

interface Lock {
  holder: Sender;
  expiresAt: number;
}

export function sharedStore(options: {
  clock: SimClock;
  arrival: (label: string) => Promise<unknown>;
  trace: (line: string) => void;
  /** The world's seeded random numbers, for a flaky store's failures. */
  random: () => number;
}) {
  const { clock, arrival, trace, random } = options;
  /** The share of reads and writes that fail while the store is flaky (a connection dropping now and then). */
  let flakiness = 0;
  let values = new Map<string, string>();
  /** Every write, in order, for a failover to lose the last of them. */
  let writes: { tenant: string; value: string | undefined }[] = [];
  const locks = new Map<string, Lock>();
  const faults: StoreFault[] = [];
  // A dead process's command is never answered; the world lets it go when the run ends.
  const graves = new Set<(reason: unknown) => void>();
  const never = () =>
    new Promise<never>((_, reject) => {
      graves.add(reject);
    });

  async function command<T>(sender: Sender, label: string, run: () => T, faulty = true): Promise<T> {
    if (sender.dead) {
      return never();
    }
    await arrival(`p${sender.id} ${label}`);
    if (sender.dead) {
      return never();
    }
    const fault = faulty ? (faults.shift() ?? (random() < flakiness ? "fail" : undefined)) : undefined;
    if (fault === "fail") {
      throw new Error(`store ${label} failed (connection lost)`);
    }
    if (fault === "hang") {
      await clock.sleep(COMMAND_DEADLINE_MS);
      throw new Error(`store ${label} timed out`);
    }
    return run();
  }

  const lockOf = (tenant: string) => {
    const lock = locks.get(tenant);
    return lock && lock.expiresAt > clock.now() ? lock : undefined;
  };

  function storeFor(tenant: string, sender: Sender): TokenStore {
    const write = (value: string | undefined) => {
      if (value === undefined) {
        values.delete(tenant);
      } else {
        values.set(tenant, value);
      }
      writes.push({ tenant, value });
    };
    const read = () => {
      const value = values.get(tenant);
      return value === undefined ? undefined : JSON.parse(value);
    };
    return {
      tenant,
      get: () => command(sender, `get ${tenant}`, read),
      peek: () => command(sender, `peek ${tenant}`, read),
      set: (tokens) => command(sender, `set ${tenant}`, () => write(JSON.stringify({ ...tokens }))),
      clear: () => command(sender, `clear ${tenant}`, () => write(undefined)),
      lockingRules,
      async lock<T>(task: (hold?: LockHold) => Promise<T>): Promise<T> {
        const giveUpAt = clock.now() + LOCK_WAIT_MS;
        let mine: Lock | undefined;
        while (!mine) {
          mine = await command(
            sender,
            `lock ${tenant}`,
            () => {
              if (lockOf(tenant)) {
                return undefined;
              }
              const taken = { holder: sender, expiresAt: clock.now() + LOCK_TTL_MS };
              locks.set(tenant, taken);
              return taken;
            },
            false,
          );
          if (!mine) {
            if (clock.now() >= giveUpAt) {
              throw new Error(`the lock of ${tenant} stayed taken for ${LOCK_WAIT_MS} ms`);
            }
            await clock.sleep(LOCK_POLL_MS);
          }
        }
        const lock = mine;
        const ours = () => locks.get(tenant) === lock && lock.expiresAt > clock.now();
        const extend = () => {
          if (ours() && !sender.dead) {
            lock.expiresAt = clock.now() + LOCK_TTL_MS;
          }
        };
        let beating = true;
        const beat = () => {
          if (beating && !sender.dead) {
            extend();
            clock.after(LOCK_TTL_MS / 3, beat);
          }
        };
        clock.after(LOCK_TTL_MS / 3, beat);
        const hold: LockHold = {
          get aborted() {
            return !ours();
          },
          held: () =>
            command(
              sender,
              `held ${tenant}`,
              () => {
                const still = ours();
                extend();
                return still;
              },
              false,
            ),
        };
        try {
          return await task(hold);
        } finally {
          beating = false;
          if (!sender.dead && locks.get(tenant) === lock) {
            locks.delete(tenant);
          }
        }
      },
    };
  }

  return {
    storeFor,
    fault: (fault: StoreFault) => faults.push(fault),
    flaky(share: number) {
      trace(`store: ${Math.round(share * 100)}% of reads and writes fail from now on`);
      flakiness = share;
    },
    /** A restart with nothing: every value and lock gone. */
    restartEmpty() {
      trace("store: restarted empty");
      values = new Map();
      writes = [];
      locks.clear();
    },
    /**
     * A failover to a replica that missed the last `lost` writes; the locks are gone with them. Returns
     * the values it went back to, whose refresh tokens may be spent: presenting them is this fault's doing.
     */
    failover(lost: number): string[] {
      const kept = writes.slice(0, Math.max(0, writes.length - lost));
      values = new Map();
      for (const { tenant, value } of kept) {
        if (value === undefined) {
          values.delete(tenant);
        } else {
          values.set(tenant, value);
        }
      }
      writes = kept;
      locks.clear();
      trace(`store: failover lost the last ${lost} writes`);
      return [...values.values()];
    },
    /** Lets go of every command a dead process waits for. */
    dispose() {
      for (const reject of graves) {
        reject(new Error("the simulated world ended"));
      }
      graves.clear();
    },
    /** The processes that hold a lock now. */
    holders: () => [...locks.values()].filter((lock) => lock.expiresAt > clock.now()).map((l) => l.holder),
  };
}
