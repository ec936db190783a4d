// Local servers for tests and the root scripts (`pnpm mock`, `pnpm start`): no test runner loaded.
export {
  bundledSpec,
  freePort,
  type PrismOptions,
  portInUse,
  type RunningPrism,
  startPrism,
} from "./prism.js";
export { type StaticOptions, type StaticServer, serveStatic } from "./serve-static.js";
