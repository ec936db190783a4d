// The rules of a store with a lock, alone: the session that uses them is token-cycler.ts's.
import { describe, expect, it } from "vitest";
import { EngageVoiceAuthError } from "../src/errors.js";
import { createTokenManager } from "../src/index.js";
import { LockLost, lockingRules as lockingStore, markInFlight } from "../src/locking-store.js";
import { memoryStore, type TokenStore } from "../src/store.js";
import { rulesOf } from "../src/store-rules.js";
import { fromStored, type TokenSet } from "../src/tokens.js";
import { recordingLogger } from "./fake-server.js";

const set = (n: number, refreshToken: string | undefined = `refresh-${n}`) =>
  fromStored({
    accessToken: `access-${n}`,
    refreshToken,
    expiresAt: 1e13,
    obtainedAt: 1,
    sequence: n,
  }) as TokenSet;

const locked = (): TokenStore => ({ ...memoryStore(), lock: (task) => task(), lockingRules: lockingStore });

describe("the rules of a store", () => {
  it("do nothing for a store without a lock, whose newest set is the one of the highest sequence", async () => {
    const { logger, lines } = recordingLogger();
    // A store's rules without its lock (a spread store whose lock was left out) are not used.
    const rules = rulesOf({ ...memoryStore(), lockingRules: lockingStore }, logger);
    const held = set(1);
    expect(rules.locks).toBe(false);
    expect(rules.afterRead(held, set(2), true)?.sequence).toBe(2);
    expect(rules.afterRead(set(2), held, false)?.sequence).toBe(2);
    await rules.stillHeld({ aborted: true });
    expect(rules.lostLock(new LockLost())).toBe(false);
    expect(rules.afterRead(held, markInFlight(held), true)).toBe(held);
    expect(rules.afterRead(held, undefined, true)).toBe(held);
    const written: TokenSet[] = [];
    await rules.beforeRefresh(held, async (s: TokenSet) => void written.push(s));
    await rules.putBack(held, undefined, async (s: TokenSet) => void written.push(s));
    expect(written).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("are refused for a store with a lock that does not carry them, in every build", () => {
    const store: TokenStore = { ...memoryStore(), lock: (task) => task() };
    expect(() => rulesOf(store, recordingLogger().logger)).toThrow(
      expect.objectContaining({ code: "invalid_options", message: expect.stringMatching(/lockingRules/) }),
    );
    expect(() => createTokenManager({ rcAccessToken: "t", tenant: "acme", store })).toThrow(/lockingRules/);
    const rules = rulesOf(locked(), recordingLogger().logger);
    expect(rules.locks).toBe(true);
    expect(rules.lostLock(new LockLost())).toBe(true);
  });

  it("takes the mark of a refresh that never came back, so the session exchanges", () => {
    const { logger, lines } = recordingLogger();
    const rules = lockingStore(locked(), logger);
    const held = set(1);
    const mark = markInFlight(held);
    expect(rules.afterRead(held, mark, true)).toBe(mark);
    expect(lines.join("\n")).toMatch(/marked in flight: exchanging again/);
  });

  it("drops the refresh token of a set gone from the store, only if the store held it", () => {
    const { logger } = recordingLogger();
    const rules = lockingStore(locked(), logger);
    const held = set(1);
    expect(rules.afterRead(held, undefined, true)).toBe(held); // never known to be in the store
    rules.stored(held);
    expect(rules.afterRead(held, undefined, true)?.refreshToken).toBeUndefined();
  });

  it("presents no refresh token it holds after a read under the lock that failed", () => {
    const { logger, lines } = recordingLogger();
    const rules = lockingStore(locked(), logger);
    const held = set(1);
    expect(rules.afterRead(held, undefined, false)?.refreshToken).toBeUndefined();
    expect(lines.join("\n")).toMatch(/could not be read under its lock.*exchanging again/);
    expect(rules.afterRead(undefined, undefined, false)).toBeUndefined();
  });

  it("takes a stored set it never saw over the one it holds, whatever their sequences", () => {
    const rules = lockingStore(locked(), recordingLogger().logger);
    const held = set(5);
    rules.saw(held);
    // A store restarted empty numbers from 1 again: another process's exchange is the newest set.
    const afterRestart = set(1);
    expect(rules.afterRead(held, afterRestart, true)).toBe(afterRestart);
    // A set it saw before is older, though its sequence is not lower: a failover lost a write.
    rules.saw(afterRestart);
    const newer = set(2);
    rules.saw(newer);
    expect(rules.afterRead(newer, afterRestart, true)).toBe(newer);
  });

  it("marks before a refresh, and fails with store_failed when the mark cannot be written", async () => {
    const rules = lockingStore(locked(), recordingLogger().logger);
    const held = set(1);
    const written: TokenSet[] = [];
    await rules.beforeRefresh(held, async (s: TokenSet) => void written.push(s));
    expect(written.map((s) => s.refreshToken)).toEqual([undefined]);
    const refused = async () => {
      throw new Error("disk full");
    };
    await expect(rules.beforeRefresh(held, refused)).rejects.toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/no token call was made/),
    });
    // A session logged out meanwhile gets its own typed error back (the session's write says so).
    const loggedOut = new EngageVoiceAuthError("logged_out", "logged out");
    await expect(
      rules.beforeRefresh(held, async () => {
        throw loggedOut;
      }),
    ).rejects.toBe(loggedOut);
  });

  it("puts the refresh token back only while the lock is still ours", async () => {
    const { logger, lines } = recordingLogger();
    const rules = lockingStore(locked(), logger);
    const held = set(1);
    const written: TokenSet[] = [];
    await rules.putBack(held, { aborted: true }, async (s: TokenSet) => void written.push(s));
    expect(written).toEqual([]);
    await rules.putBack(held, { aborted: false }, async (s: TokenSet) => void written.push(s));
    expect(written).toEqual([held]);
    await rules.putBack(held, undefined, async () => {
      throw new Error("down");
    });
    expect(lines.join("\n")).toMatch(/could not take back the in-flight mark.*the next renewal exchanges/);
  });

  it("takes a lost lock once more, reading again, and gives up after that", async () => {
    const { logger, lines } = recordingLogger();
    let tries = 0;
    const store = locked();
    const rules = lockingStore(store, logger);
    const once = async () => {
      tries++;
      if (tries === 1) {
        throw new LockLost();
      }
      return set(2);
    };
    expect((await rules.underLock(once)).sequence).toBe(2);
    expect(tries).toBe(2);
    expect(lines.join("\n")).toMatch(/reading the store again under the lock/);
    const always = async (): Promise<TokenSet> => {
      throw new LockLost();
    };
    await expect(rules.underLock(always)).rejects.toBeInstanceOf(LockLost);
    await expect(rules.underLock(async () => Promise.reject(new Error("other")))).rejects.toThrow("other");
  });
});
