export type { RedisLike } from "./client.js";
export { budgetKeys, type RedisExchangeBudgetOptions, redisExchangeBudget } from "./exchange-budget.js";
export {
  type RedisNames,
  redisClusterOptions,
  redisNames,
  redisStoreDefaults,
  redisStoreLimits,
} from "./options.js";
export type { RedisSubscriber } from "./released.js";
export { type RedisStoreOptions, type RedisTokenStore, redisStore, STORED_SET_MAX_BYTES } from "./store.js";
