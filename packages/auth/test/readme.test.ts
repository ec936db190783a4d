// The README's numbers and worked examples, held to the code: change `renewalDefaults`,
// `backoffDefaults` or `exchangeLimitDefaults` and this test names the README's lines to change.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { backoffDefaults, backoffDelay } from "../src/backoff.js";
import { exchangeLimitDefaults } from "../src/exchange-limiter.js";
import { renewalDefaults } from "../src/renewal-policy.js";
import { windowOf } from "./renewal-times.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const section = (title: string) => {
  const start = readme.indexOf(`## ${title}`);
  expect(start, `README section "${title}"`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
};
const renewal = section("How renewal works");
const options = section("Options of `createTokenManager`");

/** The first match of `pattern` in `text`, its groups; fails naming the pattern when absent. */
function find(text: string, pattern: RegExp): string[] {
  const match = pattern.exec(text);
  expect(match, `README: no text matching ${pattern}`).not.toBeNull();
  return (match as RegExpExecArray).slice(1);
}

const UNITS: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000 };
/** "0.2 s", "5 min", "1 h" in milliseconds. */
function duration(text: string): number {
  const [, amount, unit] = /^([\d.]+) (s|min|h)$/.exec(text.trim()) ?? [];
  expect(unit, `README: "${text}" is not a duration like "0.2 s" or "5 min"`).toBeDefined();
  return Number(amount) * (UNITS[unit as string] as number);
}
const SHARES: Record<string, number> = { half: 1 / 2, third: 1 / 3, quarter: 1 / 4, fifth: 1 / 5 };

describe("README, How renewal works", () => {
  it("states the window as renewalDefaults has it", () => {
    const [percent, seconds] = find(renewal, /the\s+last (\d+(?:\.\d+)?)% of it, at most (\d+(?:\.\d+)?) s/);
    expect(Number(percent) / 100).toBeCloseTo(renewalDefaults.windowShare, 9);
    expect(Number(seconds) * 1_000).toBe(renewalDefaults.maxWindowMs);
    const [share] = find(renewal, /In the last (\w+) of the window the token is no longer handed out/);
    expect(SHARES[share as string], `README: "${share}" of the window`).toBeCloseTo(
      renewalDefaults.unservableShare,
      9,
    );
  });

  it("has worked examples that the policy gives", () => {
    const rows = [...renewal.matchAll(/^\| ([\d.]+ (?:s|min|h)) \| ([\d.]+ s) \| ([\d.]+ s) \|$/gm)];
    expect(rows.length, "README: the table of worked examples").toBeGreaterThanOrEqual(3);
    for (const [line, lives, renewed, unservable] of rows) {
      const window = windowOf(duration(lives as string));
      expect(duration(renewed as string), line).toBeCloseTo(window, 6);
      expect(duration(unservable as string), line).toBeCloseTo(window * renewalDefaults.unservableShare, 6);
    }
  });

  it("states the waits as backoffDefaults has them", () => {
    const [first, second, third, most] = find(
      renewal,
      /backoff with jitter \((\d+) s, (\d+) s, (\d+) s … at most (\d+) s, each between half and all of it/,
    );
    const longest = (step: number) => backoffDelay(step, () => 1);
    expect([first, second, third].map((s) => Number(s) * 1_000)).toEqual([0, 1, 2].map(longest));
    expect(Number(most) * 1_000).toBe(backoffDefaults.maxMs);
    expect(backoffDelay(0, () => 0)).toBe(longest(0) / 2);
  });

  it("states the exchange limit as exchangeLimitDefaults has it", () => {
    expect(exchangeLimitDefaults.windowMs, 'the README says "a minute"').toBe(UNITS.min);
    const [observed] = find(renewal, /The exchange endpoint allows (\d+) calls a minute/);
    const [kept] = find(renewal, /`exchangesPerMinute` \((\d+),/);
    expect(Number(observed)).toBe(exchangeLimitDefaults.perMinute);
    expect(Number(kept)).toBe(exchangeLimitDefaults.perMinute);
  });
});

describe("README, Options of createTokenManager", () => {
  it("gives the defaults the code has", () => {
    const [share, most] = find(
      options,
      /\| `refreshWindow` \| `\(life\) => Math\.min\(life \* ([\d.]+), ([\d_]+)\)` \|/,
    );
    expect(Number(share)).toBeCloseTo(renewalDefaults.windowShare, 9);
    expect(Number((most as string).replaceAll("_", ""))).toBe(renewalDefaults.maxWindowMs);
    const [limit] = find(options, /\| `exchangesPerMinute` \| `(\d+)` \|/);
    expect(Number(limit)).toBe(exchangeLimitDefaults.perMinute);
  });
});
