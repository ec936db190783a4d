// `@engage-voice/test-kit`: the test code the packages share, where turbo sees it. The servers
// (Prism, static files) are `./servers`; child processes, run or left running, `./processes`
// (no test runner loaded); what the multi-process race's children load is `./child`.
export { type FakeClock, fakeClock, START } from "./clock.js";
export {
  assertSchema,
  document,
  documentOperations,
  type Observed,
  operationOf,
  responseProblems,
  schemaProblems,
} from "./document.js";
export {
  type Endpoint,
  type Fault,
  type Handler,
  type HostileHosts,
  type HostileOptions,
  hostile,
} from "./hostile.js";
export {
  type Answer,
  bearer,
  call,
  exchange,
  expectApiError,
  expectConforms,
  expectJwtExpired,
  form,
  legacyLogin,
  refresh,
} from "./http.js";
export { stoppedAfterEach } from "./lifecycle.js";
export { type Logger, recordingLogger } from "./logger.js";
export {
  type Answer as HostAnswer,
  drip,
  type LoopbackHost,
  neverAnswer,
  startLoopbackHost,
  underGarbageCollection,
} from "./loopback-host.js";
export { HOSTED_TENANT, type HostedOptions, managersOn } from "./managers.js";
export { expectOneRefreshForAllProcesses, expired, runTogether } from "./race.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The URL of the redis-server that `@engage-voice/test-kit/redis-global-setup` started. */
    redisUrl: string;
  }
}
