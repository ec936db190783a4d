// Local servers for tests and the root scripts (`pnpm mock`, `pnpm start`): Prism, static files and
// redis-server, all on 127.0.0.1. No test runner is loaded.
export {
  bundledSpec,
  freePort,
  type PrismOptions,
  portInUse,
  type RunningPrism,
  startPrism,
} from "./prism.js";
export { ping, REDIS_SERVER, type RunningRedis, startRedis } from "./redis.js";
export { REDIS_CLI, type RunningRedisCluster, startRedisCluster } from "./redis-cluster.js";
export { type StaticOptions, type StaticServer, serveStatic } from "./serve-static.js";
