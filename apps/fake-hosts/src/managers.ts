// One set-up for "a token manager on the fake hosts", shared by the packages that rebuild it (auth,
// store-redis). The manager's factory is the caller's: this package cannot depend on
// @engage-voice/auth, whose tests depend on it (a cycle turbo refuses), so each passes `createTokenManager`.
import { type FakeClock, fakeClock, recordingLogger } from "@engage-voice/test-kit";
import { BASE, fakeServer, type ServerOptions } from "./hosts.js";

/** The tenant of the managers given a store. */
export const HOSTED_TENANT = "tenant-under-test";

/** What every manager on the fake hosts is given; a test's `options` override any of it. */
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

export interface HostsOptions extends Omit<ServerOptions, "clock"> {
  /** The clock of the hosts and the managers; default a fresh `fakeClock()`. */
  clock?: FakeClock;
}

/**
 * A fake server on a fake clock, and `managerOn(store, options)`: a manager on them with its own
 * recording logger, on `store` (`undefined`: the manager's default memory store). Managers made with
 * one store are other processes sharing it.
 */
export function fakeHosts<Options extends object, Manager>(
  create: (options: Options) => Manager,
  { clock = fakeClock(), ...serverOptions }: HostsOptions = {},
) {
  const server = fakeServer({ clock, ...serverOptions });
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock.advance(ms);
  };
  const random = () => 0.5;
  /** `options` override the hosted ones; one given as `undefined` is left out: the manager's default. */
  function managerOn(store?: unknown, options: { [K in keyof Options]?: Options[K] | undefined } = {}) {
    const { lines, logger } = recordingLogger();
    const hosted: HostedOptions = {
      baseUrl: BASE,
      rcAccessToken: server.parentToken,
      fetch: server.fetch,
      clock,
      sleep,
      random,
      logger,
    };
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
  return { clock, server, sleeps, policy, managerOn };
}
