// Processes that race on one config folder: a login while another process renews the profile's
// old session, and logins of several profiles at once. Each race is set up by holding requests at a
// proxy until every process is where the race needs it, never by waiting for time to pass.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatedProxy, gatedProxy } from "./gated-proxy.js";
import { cliIn, type Result, storedTokens, tempHome, tokenPath } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const EXCHANGE = "/api/auth/login/rc/accesstoken";
const REFRESH = "/api/auth/token/refresh";

let sandbox: RunningSandbox;
const refreshTokens: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ exchangeRateLimit: { limit: 1000, windowMs: 60_000 } });
});

afterAll(async () => {
  await sandbox?.stop();
  expectNoSecrets(sandbox, refreshTokens);
});

const parent = (who: string) =>
  sandbox.seed.parentTokens.find((p) => p.token.endsWith(`-${who}`))?.token as string;

function ok(result: Result): Result {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result;
}

describe("login against a renewal of the old session in another process", () => {
  let main: GatedProxy;
  afterAll(() => main?.close());

  it("the new session wins: the renewal that held the lock stores its set first, the login's goes above it", async () => {
    main = await gatedProxy(sandbox.mainUrl);
    const home = await tempHome();
    const cli = cliIn(home);
    const hosts = ["--profile", "swap", "--base-url", main.url];
    ok(await cli(["login", "--rc-token-stdin", ...hosts], { input: parent("ada") }));
    // The stored access token looks expired to the CLI: `token` must refresh, under the file's lock.
    const file = tokenPath(home, "swap", main.url);
    const old = JSON.parse(await readFile(file, "utf8"));
    refreshTokens.push(old.refreshToken);
    await writeFile(file, JSON.stringify({ ...old, expiresAt: Date.now() - 60_000 }));

    const release = main.hold(REFRESH);
    const renewing = cli(["token", ...hosts]);
    await main.arrived(REFRESH);
    // The renewal holds the lock and waits for its answer. The login exchanges (not held), then
    // either stores at once, or announces that it is waiting for the lock: either way the race is set.
    let waiting = () => {};
    const atLock = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const logging = cli(["login", "--rc-token-stdin", "--debug", ...hosts], {
      input: parent("rob"),
      onStderr: (stderr) => {
        if (stderr.includes("storing the new session under the token file's lock")) {
          waiting();
        }
      },
    });
    await Promise.race([logging, atLock]);
    release();
    const [renewed, loggedIn] = await Promise.all([renewing, logging]);
    expect(renewed.code).toBe(0);
    expect(loggedIn.code).toBe(0);

    const stored = (await storedTokens(home, "swap", main.url)) as Awaited<
      ReturnType<typeof storedTokens>
    > & {
      agentDetails: { username?: string; email?: string }[];
      sequence: number;
    };
    if (stored.refreshToken) {
      refreshTokens.push(stored.refreshToken);
    }
    const agent = stored.agentDetails[0];
    expect(agent?.username ?? agent?.email).toMatch(/^rob/);
    // And the next command uses it: the profile did not go back to the old session.
    const profiles = JSON.parse(ok(await cli(["profiles", "--json"])).stdout);
    expect(profiles.find((p: { profile: string }) => p.profile === "swap").user).toMatch(/^rob/);
  });
});

describe("logins of several profiles at once", () => {
  let main: GatedProxy;
  afterAll(() => main?.close());

  it("every profile is kept in config.json: each login changes the file as it is then, under a lock", async () => {
    main = await gatedProxy(sandbox.mainUrl);
    const home = await tempHome();
    const cli = cliIn(home);
    const count = 6;
    // Every process has read config.json and sent its exchange before any answer comes back.
    const release = main.hold(EXCHANGE);
    const runs = Array.from({ length: count }, (_, i) =>
      cli(["login", "--rc-token-stdin", "--profile", `p${i + 1}`, "--base-url", main.url], {
        input: parent("ada"),
      }),
    );
    await main.arrived(EXCHANGE, count);
    release();
    for (const result of await Promise.all(runs)) {
      ok(result);
    }
    const config = JSON.parse(await readFile(join(home, ".config", "engage-voice", "config.json"), "utf8"));
    expect(Object.keys(config.profiles).sort()).toEqual(Array.from({ length: count }, (_, i) => `p${i + 1}`));
    for (let i = 1; i <= count; i++) {
      refreshTokens.push((await storedTokens(home, `p${i}`, main.url)).refreshToken as string);
    }
    // The host each one logged in to is remembered: no --base-url needed.
    const accounts = await cli(["accounts", "--profile", "p1"]);
    ok(accounts);
  });
});
