// Token-call waits at their home: every expectation is computed from `backoffDefaults`.
import { callDefaults } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { backoffDefaults, backoffDelay } from "../src/backoff.js";

const { firstMs, maxMs } = backoffDefaults;
/** The first step whose wait is capped. */
const cappedStep = Math.ceil(Math.log2(maxMs / firstMs));
const always = (value: number) => () => value;
const almostOne = 1 - Number.EPSILON;

describe("backoffDelay", () => {
  it("waits longer than an API call's retry: a token call is the costlier one", () => {
    expect(firstMs).toBeGreaterThanOrEqual(callDefaults.firstRetryMs);
    expect(maxMs).toBeGreaterThanOrEqual(callDefaults.maxRetryDelayMs);
  });

  it.each(Array.from({ length: cappedStep + 3 }, (_, step) => step))(
    "step %i: between half and all of the first wait doubled per step, capped",
    (step) => {
      const full = Math.min(firstMs * 2 ** step, maxMs);
      expect(backoffDelay(step, always(0))).toBe(full / 2);
      expect(backoffDelay(step, always(0.5))).toBe(full * 0.75);
      expect(backoffDelay(step, always(almostOne))).toBeLessThan(full);
      expect(backoffDelay(step, always(almostOne))).toBeGreaterThan(full * 0.99);
    },
  );

  it("doubles until the cap, then stays there", () => {
    const waits = Array.from({ length: cappedStep + 3 }, (_, step) => backoffDelay(step, always(0)));
    expect(waits[0]).toBe(firstMs / 2);
    expect(waits.at(-1)).toBe(maxMs / 2);
    for (let step = 1; step < cappedStep; step++) {
      expect(waits[step]).toBe(2 * (waits[step - 1] as number));
    }
  });

  it.each<[string, number, number]>([
    ["a Retry-After past the wait is waited in full", maxMs * 2, maxMs * 2],
    ["a Retry-After inside the wait changes nothing", firstMs / 4, firstMs * 0.75],
    ["no Retry-After", 0, firstMs * 0.75],
  ])("%s", (_, retryAfterMs, wait) => {
    expect(backoffDelay(0, always(0.5), retryAfterMs)).toBe(wait);
  });
});
