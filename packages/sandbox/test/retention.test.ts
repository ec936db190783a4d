// What the state keeps over a long run, on the injected clock: a session is one record however
// often it rotates, and an access token's jti is dropped once its exp has passed, so thousands of
// refreshes (not rate limited) leave the state as small as one. Spent tokens are still recognised.
import { describe, expect, it } from "vitest";
import { resolveOptions, type SandboxOptions } from "../src/options.js";
import { findUser, type SeedUser } from "../src/seed.js";
import { SandboxState } from "../src/state.js";
import { manualClock } from "./helpers.js";

const CYCLES = 2_000;

function stateOn(options: SandboxOptions = {}) {
  const clock = manualClock();
  const state = new SandboxState(resolveOptions({ now: clock.now, tokenLifetimeMs: 1_000, ...options }));
  return { clock, state };
}

const ada = () => findUser(1001) as SeedUser;

describe("what the sandbox retains", () => {
  it("keeps one record per session and no expired jti across thousands of refreshes", async () => {
    const { clock, state } = stateOn();
    const first = await state.issueTokens(ada(), null);
    let current = first.refreshToken;
    for (let i = 0; i < CYCLES; i++) {
      clock.advance(1_000); // the last access token's exp passes
      const next = await state.rotate(current);
      if (!next.ok) {
        throw new Error(`rotation ${i} refused: ${next.reason}`);
      }
      current = next.tokens.refreshToken;
      expect(state.retained()).toEqual({ refreshRecords: 1, jtis: 1, apiTokens: 0 });
    }
    // The first token, spent thousands of rotations ago, is still known as spent: it revokes the session.
    expect(await state.rotate(first.refreshToken)).toEqual({ ok: false, reason: "spent" });
    expect(await state.rotate(current)).toEqual({ ok: false, reason: "revoked" });
  });

  it("drops the jtis that the control expired once their exp has passed", async () => {
    const { clock, state } = stateOn();
    for (let i = 0; i < 50; i++) {
      await state.issueTokens(ada(), undefined);
    }
    expect(state.expireAccessTokens()).toBe(50);
    expect(state.retained().jtis).toBe(50); // still needed: their exp has not passed
    clock.advance(1_000);
    await state.issueTokens(ada(), undefined);
    expect(state.retained().jtis).toBe(1);
  });

  it("rotates a live token once when two refreshes race with it", async () => {
    const { state } = stateOn();
    const { refreshToken } = await state.issueTokens(ada(), null);
    const results = await Promise.all([state.rotate(refreshToken), state.rotate(refreshToken)]);
    expect(results.map((result) => (result.ok ? "ok" : result.reason)).sort()).toEqual(["ok", "spent"]);
  });

  it.each([
    ["a made-up token", "00000000-0000-4000-8000-000000000000"],
    ["a token of the right shape never issued", "A".repeat(43)],
  ])("answers unknown for %s", async (_, token) => {
    const { state } = stateOn();
    await state.issueTokens(ada(), null);
    expect(await state.rotate(token)).toEqual({ ok: false, reason: "unknown" });
  });

  it("answers unknown for the live generation with another random part, and revokes nothing", async () => {
    const { state } = stateOn();
    const { refreshToken } = await state.issueTokens(ada(), null);
    const forged = `${refreshToken.slice(0, -4)}${refreshToken.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect(await state.rotate(forged)).toEqual({ ok: false, reason: "unknown" });
    expect((await state.rotate(refreshToken)).ok).toBe(true);
  });
});
