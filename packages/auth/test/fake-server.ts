// The token manager wired to the test kit's fake hosts and fake clock. The kit's exports are
// re-exported, so a test imports everything it needs from here.
import { BASE, fakeClock, fakeServer, recordingLogger, type ServerOptions } from "@engage-voice/test-kit";
import { createTokenManager, type TokenManagerOptions } from "../src/index.js";

export * from "@engage-voice/test-kit";

/** A manager wired to a fake server and a fake clock; `sleep` advances the clock at once. */
export function setup(
  overrides: Partial<TokenManagerOptions> = {},
  serverOptions: Omit<ServerOptions, "clock"> = {},
) {
  const clock = fakeClock();
  const server = fakeServer({ clock, ...serverOptions });
  const { lines, logger } = recordingLogger();
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock.advance(ms);
  };
  const random = () => 0.5;
  const auth = createTokenManager({
    baseUrl: BASE,
    rcAccessToken: server.parentToken,
    fetch: server.fetch,
    clock,
    sleep,
    random,
    logger,
    ...overrides,
  });
  /** The same clock, waits and logger for a client the test makes itself. */
  const policy = { clock, sleep, random, logger };
  return { clock, server, auth, logs: lines, sleeps, policy };
}
