// The token check on every authorised call: a token the sandbox signed or already verified costs a
// look-up, not an HMAC, and still expires on the clock it is given. Counted, not timed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { JwtSigner, VERIFIED_TOKENS } from "../src/jwt.js";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const claims = (n = 0) => ({ sub: "1001", jti: `jti-${n}`, iat: T0 / 1000, exp: T0 / 1000 + 60 });

afterEach(() => vi.restoreAllMocks());

describe("the verified-token memory", () => {
  it("answers a token it signed without an HMAC per call, and expires it on the given clock", async () => {
    const signer = new JwtSigner();
    const token = await signer.sign(claims());
    const hmac = vi.spyOn(crypto.subtle, "verify");
    for (let i = 0; i < 100; i++) {
      expect(await signer.verify(token, T0 + 59_999)).toMatchObject({ ok: true, claims: { sub: "1001" } });
    }
    expect(await signer.verify(token, T0 + 60_000)).toEqual({ ok: false, reason: "expired" });
    expect(hmac).not.toHaveBeenCalled();
  });

  it("checks a token it does not remember once, and one that fails every time", async () => {
    const signer = new JwtSigner();
    const token = await signer.sign(claims());
    const tokens = [token];
    for (let n = 1; n <= VERIFIED_TOKENS; n++) {
      tokens.push(await signer.sign(claims(n)));
    }
    const hmac = vi.spyOn(crypto.subtle, "verify");
    // The first was forgotten to make room: checked again once, then remembered again.
    expect((await signer.verify(token, T0)).ok).toBe(true);
    expect((await signer.verify(token, T0)).ok).toBe(true);
    expect(hmac).toHaveBeenCalledTimes(1);
    const forged = `${token.slice(0, token.lastIndexOf(".") + 1)}${"A".repeat(43)}`;
    for (let i = 0; i < 3; i++) {
      expect(await signer.verify(forged, T0)).toEqual({ ok: false, reason: "invalid" });
    }
    expect(hmac).toHaveBeenCalledTimes(4);
    const foreign = await new JwtSigner().sign(claims());
    expect(await signer.verify(foreign, T0)).toEqual({ ok: false, reason: "invalid" });
  });
});
