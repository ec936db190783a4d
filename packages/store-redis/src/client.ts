/**
 * The few Redis commands the store needs, shaped like node-redis v5's client (`createClient()` or
 * `createCluster()` from `redis` or `@redis/client`), which fits as it is. Another client fits
 * through a small adapter object with these five methods.
 */
export interface RedisLike {
  /** The string at `key`, or `null`. */
  get(key: string): Promise<unknown>;
  /** `"OK"` when written; `null` when `condition: "NX"` found the key taken. */
  set(
    key: string,
    value: string,
    options?: { condition?: "NX"; expiration?: { type: "PX"; value: number } },
  ): Promise<unknown>;
  del(key: string): Promise<unknown>;
  /** EVAL: runs a Lua script atomically on the server (which keeps it for EVALSHA). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /**
   * EVALSHA: runs the script the server already has under this SHA-1; rejects with an error whose
   * message starts with `NOSCRIPT` when it has none (the store then sends it with EVAL).
   */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}
