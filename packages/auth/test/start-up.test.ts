// A manager that resumes a valid stored session sends nothing, so it must not make the runtime load
// its fetch implementation: reading the global `fetch` or `Request` does that in Node, and costs a
// short-lived process (`engage-voice token`) a large part of its start-up.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTokenManager, memoryStore, type TokenStore } from "../src/index.js";
import { fileStore } from "../src/node.js";
import { lockingRules } from "../src/store-kit.js";
import { fromStored, type TokenSet } from "../src/tokens.js";

const WATCHED = ["fetch", "Request", "Response", "Headers"] as const;
const originals = new Map<string, PropertyDescriptor>();

/** Replaces the watched globals with getters that note each read; answers the names read so far. */
function watchGlobals(): string[] {
  const read: string[] = [];
  for (const name of WATCHED) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name) as PropertyDescriptor;
    originals.set(name, descriptor);
    const value = (globalThis as Record<string, unknown>)[name];
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        read.push(name);
        return value;
      },
    });
  }
  return read;
}

afterEach(() => {
  for (const [name, descriptor] of originals) {
    Object.defineProperty(globalThis, name, descriptor);
  }
  originals.clear();
});

const NOW = 1_800_000_000_000;
const options = { rcAccessToken: "parent", tenant: "acme", clock: { now: () => NOW }, logger: {} };

/** A set obtained at `obtainedAt`, valid for an hour. */
const stored = (obtainedAt: number, sequence: number) =>
  fromStored({
    accessToken: `access-${sequence}`,
    expiresAt: obtainedAt + 3_600_000,
    obtainedAt,
    sequence,
    tenant: options.tenant,
  }) as TokenSet;

/** A fetch that refuses every call with a 401 and notes the paths called. */
function refusingFetch() {
  const calls: string[] = [];
  const fetch = async (request: Request) => {
    calls.push(new URL(request.url).pathname);
    return new Response("{}", { status: 401, headers: { "Content-Type": "application/json" } });
  };
  return { fetch, calls };
}

describe("start-up", () => {
  it("resumes a valid stored session without reading the global fetch or Request", async () => {
    const store = memoryStore();
    await store.set(stored(NOW, 1));
    const read = watchGlobals();
    const auth = createTokenManager({ ...options, store });
    expect(await auth.getAccessToken()).toBe("access-1");
    expect(auth.session()?.expiresAt).toBe(NOW + 3_600_000);
    expect(read).toEqual([]);
  });

  it("takes a fresh set from a file store without the lock, and renews a stale one under it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ev-start-up-"));
    try {
      const file = fileStore(join(dir, "tokens.json"));
      let locks = 0;
      const store: TokenStore = {
        ...file,
        lock: (task) => {
          locks++;
          return (file.lock as NonNullable<TokenStore["lock"]>)(task);
        },
      };
      await file.set(stored(NOW, 1));
      expect(await createTokenManager({ ...options, store }).getAccessToken()).toBe("access-1");
      expect(locks).toBe(0);
      // Seconds from expiry, past its refresh window: renewed under the lock (the exchange is refused
      // here, which is beside the point).
      await file.set(stored(NOW - 3_595_000, 2));
      const { fetch, calls } = refusingFetch();
      await createTokenManager({ ...options, store, fetch, retries: 0 })
        .getAccessToken()
        .catch(() => undefined);
      expect(locks).toBe(1);
      expect(calls).toEqual(["/api/auth/login/rc/accesstoken"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads a store with a lock and no peek only under its lock", async () => {
    const shared = memoryStore();
    let locks = 0;
    const store: TokenStore = {
      ...shared,
      lockingRules,
      lock: (task) => {
        locks++;
        return task();
      },
    };
    await shared.set(stored(NOW, 1));
    expect(await createTokenManager({ ...options, store }).getAccessToken()).toBe("access-1");
    expect(locks).toBe(1);
  });
});
