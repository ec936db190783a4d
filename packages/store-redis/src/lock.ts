import { EngageVoiceAuthError } from "@engage-voice/auth";
import type { BoundedRedis } from "./bounded.js";

export interface LockOptions {
  lockTtlMs: number;
  lockTimeoutMs: number;
  commandTimeoutMs: number;
}

/** Even a last try gets this long to answer (or less, if commands time out sooner). */
const LEAST_TRY_MS = 1_000;

// Compare-and-act in one atomic script: a holder whose lock expired and was taken by another
// process must neither extend nor delete the new holder's lock.
const EXTEND = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A value no other holder has: 128 random bits, from Web Crypto (Node 20+, Bun, Deno). */
function ownerToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const failed = (message: string, cause: unknown) =>
  new EngageVoiceAuthError("store_failed", message, { cause });

/**
 * Runs `task` while holding `lockKey` (every command bounded in time by the caller's client): SET NX
 * PX with a value only this call knows, retried with jittered backoff until `lockTimeoutMs`. The TTL
 * is extended while the task runs, so a long renewal keeps its lock, and a crashed holder's lock
 * expires after at most `lockTtlMs`.
 */
export async function withRedisLock<T>(
  client: BoundedRedis,
  lockKey: string,
  { lockTtlMs, lockTimeoutMs, commandTimeoutMs }: LockOptions,
  task: () => Promise<T>,
): Promise<T> {
  const owner = ownerToken();
  const deadline = Date.now() + lockTimeoutMs;
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    let reply: unknown;
    try {
      reply = await client.set(
        lockKey,
        owner,
        { condition: "NX", expiration: { type: "PX", value: lockTtlMs } },
        // Each try is a command like any other (commandTimeoutMs), and none outlives the overall
        // deadline by more than a short answer time: lockTimeoutMs 0 still gets its one real try.
        Math.min(commandTimeoutMs, Math.max(deadline - Date.now(), LEAST_TRY_MS)),
      );
    } catch (error) {
      // A try that got no answer may still run once Redis answers again (a stalled server reads
      // it later, a client's offline queue sends it on reconnect), taking a lock nobody would
      // release until its TTL ends. This compare-and-delete follows it on the same connection.
      client.eval(RELEASE, { keys: [lockKey], arguments: [owner] }).catch(() => {});
      throw failed("The Redis lock of the token set could not be taken", error);
    }
    if (reply === "OK") break;
    if (Date.now() >= deadline) {
      throw new EngageVoiceAuthError(
        "store_failed",
        `The Redis lock of the token set stayed taken for ${lockTimeoutMs} ms`,
      );
    }
    await pause(Math.min(wait / 2 + Math.random() * wait, Math.max(1, deadline - Date.now())));
  }
  // While Redis stalls, beats would pile up one unanswered command each (a short TTL beats every
  // 10 ms, a command may wait a minute), all sent to Redis at once when it answers again.
  let extending = false;
  const heartbeat = setInterval(() => {
    if (extending) return;
    extending = true;
    client
      .eval(EXTEND, { keys: [lockKey], arguments: [owner, String(lockTtlMs)] })
      .then(
        // 0: the lock expired and someone else may hold it now; extending is no longer ours to do.
        (extended) => {
          if (extended !== 1) clearInterval(heartbeat as Parameters<typeof clearInterval>[0]);
        },
        // A failed extension is tried again on the next beat; the TTL covers two more of them.
        () => {},
      )
      .finally(() => {
        extending = false;
      });
  }, lockTtlMs / 3) as { unref?: () => void };
  heartbeat.unref?.();
  try {
    return await task();
  } finally {
    clearInterval(heartbeat as Parameters<typeof clearInterval>[0]);
    // A failed release only delays the next holder until the TTL ends: the task's outcome stands.
    await client.eval(RELEASE, { keys: [lockKey], arguments: [owner] }).catch(() => {});
  }
}
