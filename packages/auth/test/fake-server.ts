// The token manager on the fake hosts (the sandbox with faults on top) and a fake clock. The test
// kit's and the fake hosts' exports are re-exported, so a test imports everything it needs from here.
import { fakeHosts, type HostsOptions } from "@engage-voice/fake-hosts";
import { createTokenManager, type TokenManagerOptions } from "../src/index.js";

export * from "@engage-voice/fake-hosts";
export * from "@engage-voice/test-kit";
/** Fake hosts whose `managerOn(store, options)` makes this package's token managers. */
export const hostsFor = (hostsOptions: HostsOptions = {}) => fakeHosts(createTokenManager, hostsOptions);

/** One manager on fresh fake hosts; `sleep` advances the clock at once. */
export function setup(overrides: Partial<TokenManagerOptions> = {}, hostsOptions: HostsOptions = {}) {
  const hosts = hostsFor(hostsOptions);
  const { auth, logs, logger } = hosts.managerOn(overrides.store, overrides);
  const { clock, server, sleeps } = hosts;
  /** The same clock, waits and logger for a client the test makes itself. */
  const policy = { ...hosts.policy, logger };
  return { clock, server, auth, logs, sleeps, policy, managerOn: hosts.managerOn };
}
