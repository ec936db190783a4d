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
  const auth = createTokenManager({
    baseUrl: BASE,
    rcAccessToken: server.parentToken,
    fetch: server.fetch,
    clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    random: () => 0.5,
    logger,
    ...overrides,
  });
  return { clock, server, auth, logs: lines, sleeps };
}
