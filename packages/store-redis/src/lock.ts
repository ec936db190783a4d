import { type Lease, type LockHold, storeFailed, withLease } from "@engage-voice/auth/store-kit";
import type { BoundedRedis } from "./bounded.js";
import type { ReleaseSignal } from "./released.js";
import { script } from "./scripts.js";

export interface LockOptions {
  lockTtlMs: number;
  lockTimeoutMs: number;
  commandTimeoutMs: number;
  /** Where its releases are published. */
  channel: string;
  /** Present: waiters wake on a release instead of polling. */
  released: ReleaseSignal | undefined;
}

/**
 * With a subscriber, a waiter sleeps up to this share of the lock's TTL between tries when no release
 * is heard: a holder that crashed announces nothing, and its lock expires within one TTL.
 */
const QUIET_WAIT_SHARE = 1 / 4;

/** Even a last try gets this long to answer (or less, if commands time out sooner). */
const LEAST_TRY_MS = 1_000;

// Compare-and-act in one atomic script: a holder whose lock expired and was taken by another
// process must neither extend nor delete the new holder's lock.
export const EXTEND = script(
  `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`,
);
// The release is announced on the tenant's channel (ARGV[2]) only when the lock was ours and is gone.
export const RELEASE = script(
  `if redis.call("get", KEYS[1]) == ARGV[1] then redis.call("del", KEYS[1]) redis.call("publish", ARGV[2], "") return 1 else return 0 end`,
);

/** A value no other holder has: 128 random bits, from Web Crypto (Node 20+, Bun, Deno). */
function ownerToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Runs `task` while holding `lockKey` (every command bounded in time by the caller's client): SET NX
 * PX with a value only this call knows, retried with jittered backoff until `lockTimeoutMs`. The TTL
 * is extended while the task runs, so a long renewal keeps its lock, and a crashed holder's lock
 * expires after at most `lockTtlMs`. The task's hold asks Redis (the extension script) whether the
 * lock still holds this call's value.
 */
export function withRedisLock<T>(
  client: BoundedRedis,
  lockKey: string,
  { lockTtlMs, lockTimeoutMs, commandTimeoutMs, channel, released }: LockOptions,
  task: (hold: LockHold) => Promise<T>,
): Promise<T> {
  const owner = ownerToken();
  const release = { keys: [lockKey], arguments: [owner, channel] };
  const deadline = Date.now() + lockTimeoutMs;
  // The releases heard before the last try: one heard after it ends the pause that follows it.
  let heardBefore = 0;
  const lease: Lease = {
    async take(remainingMs) {
      heardBefore = released?.heard() ?? 0;
      let reply: unknown;
      try {
        reply = await client.set(
          lockKey,
          owner,
          { condition: "NX", expiration: { type: "PX", value: lockTtlMs } },
          // Each try is a command like any other (commandTimeoutMs), and none outlives the overall
          // deadline by more than a short answer time: lockTimeoutMs 0 still gets its one real try.
          Math.min(commandTimeoutMs, Math.max(remainingMs, LEAST_TRY_MS)),
        );
      } catch (error) {
        // A try that got no answer may still run once Redis answers again (a stalled server reads
        // it later, a client's offline queue sends it on reconnect), taking a lock nobody would
        // release until its TTL ends. This compare-and-delete follows it on the same connection.
        client.runNow(RELEASE, release).catch(() => {});
        throw storeFailed(
          `The Redis lock of the token set could not be taken: Redis did not answer within commandTimeoutMs (${commandTimeoutMs} ms) or refused the command. Check that the Redis server of redisStore()'s client is up and reachable from here; no token call was made`,
          error,
        );
      }
      return reply === "OK";
    },
    // 0: the lock expired and someone else may hold it now; extending is no longer ours to do.
    renew: async () =>
      (await client.run(EXTEND, { keys: [lockKey], arguments: [owner, String(lockTtlMs)] })) === 1,
    // A failed release only delays the next holder until the TTL ends: the task's outcome stands.
    release: async () => {
      const failing = client.failing();
      const sent = (failing ? client.runNow : client.run)(RELEASE, release);
      if (failing) {
        // Redis died or stalled mid-renewal: this answer would take another commandTimeoutMs and hold
        // the caller's new token for nothing. The release still goes out (a client's offline queue
        // sends it on reconnect), and on one connection it runs before this process's next command.
        sent.catch(() => {});
        return;
      }
      await sent;
    },
  };
  const listening = released?.listening() ?? Promise.resolve(false);
  return listening.then((subscribed) =>
    withLease(
      lease,
      {
        ...(subscribed && released
          ? {
              pause: (ms: number) =>
                released.pause(
                  Math.min(Math.max(ms, lockTtlMs * QUIET_WAIT_SHARE), Math.max(1, deadline - Date.now())),
                  heardBefore,
                ),
            }
          : {}),
        timeoutMs: lockTimeoutMs,
        renewEveryMs: lockTtlMs / 3,
        timedOut: () => storeFailed(`The Redis lock of the token set stayed taken for ${lockTimeoutMs} ms`),
      },
      task,
    ),
  );
}
