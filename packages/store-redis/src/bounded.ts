import type { RedisLike } from "./client.js";
import { runScript, type Script } from "./scripts.js";

/** A Redis command that got no answer in time: the server is down, unreachable or stalled. */
export class RedisTimeoutError extends Error {
  override readonly name = "RedisTimeoutError";
}

/**
 * The client with a deadline on every command. A client whose server is gone queues commands until
 * it reconnects (node-redis's offline queue), which would hold a renewal, and every caller waiting on
 * it, until Redis comes back. The timer keeps no process alive and is cleared with the answer.
 */
export function bounded(client: RedisLike, commandTimeoutMs: number) {
  // Whether the last command to end failed (no answer in time, or the connection dropped under it):
  // Redis is taken to be down until another command succeeds.
  let failing = false;
  const within = <T>(command: () => Promise<T>, ms = commandTimeoutMs): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          failing = true;
          reject(new RedisTimeoutError(`no answer from Redis within ${Math.max(0, Math.round(ms))} ms`));
        },
        Math.max(1, ms),
      ) as { unref?: () => void };
      timer.unref?.();
      const done = (failed: boolean) => {
        failing = failed;
        clearTimeout(timer as Parameters<typeof clearTimeout>[0]);
      };
      Promise.resolve()
        .then(command)
        .then(
          (value) => {
            done(false);
            resolve(value);
          },
          (error: unknown) => {
            done(true);
            reject(error);
          },
        );
    });
  return {
    /** True once a command has failed or had no answer in time, until another one succeeds. */
    failing: () => failing,
    /** Any other command (of another connection, as SUBSCRIBE) under the same deadline. */
    within: <T>(command: () => Promise<T>) => within(command),
    get: (key: string, ms?: number) => within(() => client.get(key), ms),
    set: (key: string, value: string, options?: Parameters<RedisLike["set"]>[2], ms?: number) =>
      within(() => client.set(key, value, options), ms),
    del: (key: string) => within(() => client.del(key)),
    /** The script by its SHA-1, its source only to a server that lacks it. */
    run: (script: Script, options: { keys: string[]; arguments: string[] }, ms?: number) =>
      within(() => runScript(client, script, options), ms),
    /**
     * The script's source, in one command sent at once: what must follow an earlier command on the
     * connection with no round trip between (an EVALSHA answered NOSCRIPT would put one there).
     */
    runNow: (script: Script, options: { keys: string[]; arguments: string[] }) =>
      within(() => client.eval(script.source, options)),
  };
}

export type BoundedRedis = ReturnType<typeof bounded>;
