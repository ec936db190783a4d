import { describe, expect, it, vi } from "vitest";
import { ExchangeRejectedError, ReauthRequiredError, RefreshRejectedError } from "../src/index.js";
import { document, PARENT_TOKEN, setup } from "./fake-server.js";

describe("a refused refresh token", () => {
  it("leads to exactly one new exchange, asking rcAccessToken again", async () => {
    const rcAccessToken = vi.fn(async () => PARENT_TOKEN);
    const s = setup({ rcAccessToken });
    const first = await s.auth.getAccessToken();
    s.server.revokeRefreshTokens();
    s.clock.advance(301_000);
    const tokens = await Promise.all(Array.from({ length: 50 }, () => s.auth.getAccessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    expect(s.server.calls.refresh).toBe(1);
    expect(s.server.calls.exchange).toBe(2);
    expect(rcAccessToken).toHaveBeenCalledTimes(2);
    expect(s.logs.some((l) => l.startsWith("warn The token refresh was refused with 401"))).toBe(true);
  });

  it("gives every waiting caller the same ReauthRequiredError when that exchange fails too", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.server.revokeRefreshTokens();
    s.server.revokeParentTokens();
    s.clock.advance(301_000);
    const errors = await Promise.all(
      Array.from({ length: 50 }, () => s.auth.getAccessToken().catch((error: unknown) => error)),
    );
    expect(new Set(errors).size).toBe(1);
    const error = errors[0] as ReauthRequiredError;
    expect(error).toBeInstanceOf(ReauthRequiredError);
    expect(error.code).toBe("reauth_required");
    expect(error.status).toBe(401);
    expect(error.cause).toBeInstanceOf(ExchangeRejectedError);
    expect(error.refreshError).toBeInstanceOf(RefreshRejectedError);
    expect(error.refreshError.code).toBe("refresh_rejected");
    expect(error.refreshError.status).toBe(401);
    expect(s.server.calls.refresh).toBe(1);
    expect(s.server.calls.exchange).toBe(2);
  });

  it("never sends the refused refresh token again", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.server.revokeRefreshTokens();
    s.server.revokeParentTokens();
    s.clock.advance(301_000);
    await expect(s.auth.getAccessToken()).rejects.toBeInstanceOf(ReauthRequiredError);
    s.server.addParentToken(PARENT_TOKEN);
    await s.auth.getAccessToken(); // a new exchange, not the spent refresh token
    expect(s.server.refreshTokensSent).toHaveLength(1);
    expect(s.server.calls.exchange).toBe(3);
    s.clock.advance(301_000);
    await s.auth.getAccessToken(); // and the new session refreshes normally
    expect(s.server.calls.refresh).toBe(2);
    expect(s.server.calls.exchange).toBe(3);
  });

  it("falls back to one exchange on an explicit refresh too", async () => {
    const s = setup();
    await s.auth.getAccessToken();
    s.server.revokeRefreshTokens();
    const renewed = await s.auth.refresh();
    expect([...s.server.secrets]).toContain(renewed.refreshToken);
    expect(s.server.calls.exchange).toBe(2);
  });

  it("surfaces a refused first exchange as ExchangeRejectedError", async () => {
    const s = setup({ rcAccessToken: () => "rc-unknown" });
    const error = await s.auth.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeRejectedError);
    expect(error).toMatchObject({ code: "exchange_rejected", status: 401 });
    // The code the document gives a refused exchange, as the hosts answer it.
    const { examples } = document.components as {
      examples: Record<string, { value: { errorCode: string } }>;
    };
    expect((error as Error).message).toContain(examples.ErrorExchangeRejected?.value.errorCode);
  });
});
