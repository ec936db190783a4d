// One set-up for "token managers on these hosts and this fake clock", shared by the suites that
// rebuild it (auth, store-redis). The manager's factory is the caller's: the kit cannot depend on
// @engage-voice/auth, whose tests depend on the kit (a cycle turbo refuses).
import type { FakeClock } from "./clock.js";
import { recordingLogger } from "./logger.js";

/** The tenant of the managers given a store. */
export const HOSTED_TENANT = "tenant-under-test";

export interface HostedOptions {
  baseUrl: string;
  rcAccessToken: string;
  fetch: (request: Request) => Promise<Response>;
  clock: FakeClock;
  /** Records each wait and moves the clock by it at once. */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: ReturnType<typeof recordingLogger>["logger"];
}

/**
 * `managerOn(store, options)`: a manager on the hosts `fetch` answers for, with its own recording
 * logger, on `store` (`undefined`: the manager's default memory store). Managers made with one store
 * are other processes sharing it. A test's `options` override any hosted one; one given as
 * `undefined` is left out: the manager's default.
 */
export function managersOn<Options extends object, Manager>(
  create: (options: Options) => Manager,
  hosts: Pick<HostedOptions, "baseUrl" | "rcAccessToken" | "fetch" | "clock">,
) {
  const { clock } = hosts;
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock.advance(ms);
  };
  const random = () => 0.5;
  function managerOn(store?: unknown, options: { [K in keyof Options]?: Options[K] | undefined } = {}) {
    const { lines, logger } = recordingLogger();
    const hosted: HostedOptions = { ...hosts, sleep, random, logger };
    // Managers on one store are one tenant's processes: a store holds one tenant's session.
    const merged = {
      ...hosted,
      ...(store === undefined ? {} : { store, tenant: HOSTED_TENANT }),
      ...options,
    };
    const given = Object.entries(merged).filter(([, value]) => value !== undefined);
    const auth = create(Object.fromEntries(given) as Options);
    return { auth, logs: lines, logger };
  }
  /** The same clock, waits and random source for a client the test makes itself. */
  const policy = { clock, sleep, random };
  return { sleeps, policy, managerOn };
}
