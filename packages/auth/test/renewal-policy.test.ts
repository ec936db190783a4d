// The renewal policy at its home, as a table: every expected moment is computed from
// `renewalDefaults`, so the table holds whatever numbers the policy has.
import { describe, expect, it } from "vitest";
import { defaultRefreshWindow, renewalDefaults, renewalPolicy } from "../src/renewal-policy.js";
import type { TokenSet } from "../src/tokens.js";

const { windowShare, maxWindowMs, maxWindowShare, unservableShare } = renewalDefaults;
/** The lifetime from which the window stops growing. */
const capLifetime = maxWindowMs / windowShare;
const T0 = 1_000_000;
const token = (lifetimeMs: number) => ({ obtainedAt: T0, expiresAt: T0 + lifetimeMs }) as TokenSet;

describe("renewalDefaults", () => {
  it("make a window that fits the lifetime and leaves the callers time to be served in it", () => {
    expect(windowShare).toBeGreaterThan(0);
    expect(windowShare).toBeLessThanOrEqual(maxWindowShare);
    expect(maxWindowShare).toBeLessThan(1);
    expect(unservableShare).toBeGreaterThan(0);
    expect(unservableShare).toBeLessThan(1);
    expect(maxWindowMs).toBeGreaterThan(0);
  });
});

describe("the default window", () => {
  it.each<[string, number, number]>([
    ["a short token: its share", capLifetime / 10, (capLifetime / 10) * windowShare],
    ["just under the cap: its share", capLifetime - 1, (capLifetime - 1) * windowShare],
    ["at the cap", capLifetime, maxWindowMs],
    ["a long token: the cap", capLifetime * 5, maxWindowMs],
    ["no lifetime: none", 0, 0],
  ])("%s", (_, lifetime, window) => {
    expect(defaultRefreshWindow(lifetime)).toBeCloseTo(window, 6);
    const policy = renewalPolicy();
    const { expiresAt } = token(lifetime);
    const renewsAt = expiresAt - defaultRefreshWindow(lifetime);
    const unservableAt = expiresAt - defaultRefreshWindow(lifetime) * unservableShare;
    expect(policy.isFresh(token(lifetime), renewsAt - 1)).toBe(true);
    expect(policy.isFresh(token(lifetime), renewsAt)).toBe(false);
    expect(policy.isServable(token(lifetime), renewsAt)).toBe(renewsAt < unservableAt);
    expect(policy.isServable(token(lifetime), unservableAt - 1)).toBe(true);
    expect(policy.isServable(token(lifetime), unservableAt)).toBe(false);
  });
});

describe("a custom window", () => {
  const lifetime = capLifetime * 2;
  const most = lifetime * maxWindowShare;
  it.each<[string, number, number]>([
    ["a window inside the lifetime's cap is kept", most / 2, most / 2],
    ["a window past the cap is cut to it", lifetime, most],
    ["no window: fresh until expiry", 0, 0],
    ["NaN: the default stands in", Number.NaN, maxWindowMs],
    ["Infinity: the default stands in", Number.POSITIVE_INFINITY, maxWindowMs],
    ["negative: the default stands in", -1, maxWindowMs],
  ])("%s", (_, wanted, window) => {
    const policy = renewalPolicy(() => wanted);
    const { expiresAt } = token(lifetime);
    expect(policy.isFresh(token(lifetime), expiresAt - window - 1)).toBe(true);
    expect(policy.isFresh(token(lifetime), expiresAt - window)).toBe(false);
    expect(policy.isServable(token(lifetime), expiresAt - window * unservableShare - 1)).toBe(true);
    expect(policy.isServable(token(lifetime), expiresAt - window * unservableShare)).toBe(false);
  });

  it("is asked with the token's lifetime, never less than zero", () => {
    const seen: number[] = [];
    const policy = renewalPolicy((lifetimeMs) => {
      seen.push(lifetimeMs);
      return 0;
    });
    policy.isFresh(token(capLifetime), T0);
    policy.isFresh({ obtainedAt: T0, expiresAt: T0 - 5 } as TokenSet, T0);
    expect(seen).toEqual([capLifetime, 0]);
  });
});
