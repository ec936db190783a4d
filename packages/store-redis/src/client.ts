/**
 * The few Redis commands the store needs, shaped like node-redis v5's client (`createClient()` from
 * `redis` or `@redis/client`), which fits as it is. Another client fits through a small adapter
 * object with these four methods.
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
  /** EVAL: runs a Lua script atomically on the server. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}
