export type { RedisLike } from "./client.js";
export { type RedisStoreOptions, redisStore } from "./store.js";
