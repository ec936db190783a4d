// A renewal on a shared token file whose holder stops (SIGSTOP, a frozen VM) after it took the lock and
// read the set, or dies in the middle of its token call (the mark of locking-store.ts). The freeze is a gate in the holder's store read,
// and "past staleLockMs" is the lock's mtime set back: no wall time passes, and with staleLockMs at its
// largest no heartbeat can touch the lock while the test runs.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TokenStore } from "../src/index.js";
import { fileStore } from "../src/node.js";
import { hostsFor } from "./fake-server.js";
import { momentsNow, moveTo } from "./renewal-times.js";

const HOUR = 3_600_000;
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ev-frozen-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A promise with its resolve and reject at hand. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every manager is another process's: its own fileStore on the one path, one fake server for all. */
function processesOn(path: string) {
  const { clock, server, managerOn } = hostsFor();
  const make = (store: TokenStore = fileStore(path, { staleLockMs: HOUR }), fetch = server.fetch) => {
    const { auth, logs } = managerOn(store, { fetch, sleep: undefined, random: undefined });
    return { auth, lines: logs };
  };
  /** The lock as a takeover sees it once the holder has been frozen past staleLockMs. */
  const ageLock = async () => {
    const old = new Date(Date.now() - 2 * HOUR);
    await utimes(`${path}.lock`, old, old);
  };
  const stored = async () => JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  return { clock, server, make, ageLock, stored };
}

/** No refresh token was presented twice. */
const eachPresentedOnce = (sent: string[]) => expect(new Set(sent).size).toBe(sent.length);

describe("a file-store holder frozen past staleLockMs", () => {
  it("wakes after its successor refreshed: it presents nothing and takes the successor's set", async () => {
    const path = join(dir, "tokens.json");
    const { clock, server, make, ageLock } = processesOn(path);
    await make().auth.getAccessToken();
    clock.advance(301_000);

    // The holder: frozen right after it read the set under the lock (its read before the lock, which
    // finds the set stale, goes on).
    const read = deferred();
    const thaw = deferred();
    const store = fileStore(path, { staleLockMs: HOUR });
    const frozen: TokenStore = {
      ...store,
      get: async () => {
        const set = await store.get();
        if (existsSync(`${path}.lock`)) {
          read.resolve();
          await thaw.promise;
        }
        return set;
      },
    };
    const holder = make(frozen);
    const holding = holder.auth.getAccessToken();
    await read.promise;

    await ageLock();
    const successor = make();
    const renewed = await successor.auth.getAccessToken();
    expect(server.calls.refresh).toBe(1);

    thaw.resolve();
    const token = await holding;
    eachPresentedOnce(server.refreshTokensSent);
    expect(token).toBe(renewed);
    expect(server.calls).toMatchObject({ refresh: 1, exchange: 1 });
    expect(holder.lines.some((line) => line.includes("lock was lost"))).toBe(true);
  });

  it("dies in the middle of its refresh: the successor finds the set marked in flight and exchanges", async () => {
    const path = join(dir, "tokens.json");
    const { clock, server, make, ageLock, stored } = processesOn(path);
    await make().auth.getAccessToken();
    const successor = make();
    await successor.auth.getAccessToken(); // a process that runs on: the set, with its refresh token, in memory
    clock.advance(301_000);

    // The holder's refresh reaches the server, which rotates the token; its answer never comes back.
    const sent = deferred();
    const death = deferred<Response>();
    const holder = make(undefined, async (request) => {
      await server.fetch(request);
      sent.resolve();
      return death.promise;
    });
    const holding = holder.auth.getAccessToken().catch((error: unknown) => error);
    await sent.promise;
    expect(await stored()).not.toHaveProperty("refreshToken"); // the mark

    await ageLock();
    await successor.auth.getAccessToken();
    eachPresentedOnce(server.refreshTokensSent);
    expect(server.calls).toMatchObject({ refresh: 1, exchange: 2 });
    expect(successor.lines.some((line) => line.includes("marked in flight"))).toBe(true);
    expect(await stored()).toHaveProperty("refreshToken");

    // The holder's end, for the test's tidiness: its lock is gone, so it puts no mark back.
    death.reject(new TypeError("fetch failed"));
    await holding;
    expect(await stored()).toHaveProperty("refreshToken");
    expect(server.calls.refresh).toBe(1);
  });

  it("a refresh that fails while the holder lives puts the refresh token back: the next renewal refreshes", async () => {
    const path = join(dir, "tokens.json");
    const { clock, server, make, stored } = processesOn(path);
    const first = make();
    await first.auth.getAccessToken();
    const { inWindow, expiresAt } = momentsNow(clock, first.auth);
    moveTo(clock, inWindow); // still servable: a background renewal, its token kept
    server.fail("refresh", { status: 503 });
    await first.auth.getAccessToken();
    await first.auth.refresh().catch(() => {}); // joins the failed background renewal
    expect(server.calls.refresh).toBe(1);
    expect(await stored()).toHaveProperty("refreshToken");
    moveTo(clock, expiresAt);
    await make().auth.getAccessToken();
    expect(server.calls).toMatchObject({ refresh: 2, exchange: 1 });
  });
});
