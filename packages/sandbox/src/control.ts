// Time and state control for tests (off unless enabled, like faults): a user's test of token
// handling advances the sandbox's clock instead of sleeping, and resets state between cases.
import type { Context, Hono } from "hono";
import { apiError, ErrorCode } from "./errors.js";
import { readLimited } from "./request.js";
import type { SandboxState, TenantCounters } from "./state.js";

export const CONTROL_PATH = "/__sandbox/control";

/** The control of one sandbox, shared by both hosts. */
export interface SandboxControl {
  /** The sandbox's clock, in epoch milliseconds. */
  now(): number;
  /** Moves the clock forward: tokens expire and rate-limit windows pass as if `ms` had gone by. */
  advance(ms: number): void;
  /** Every access token issued so far answers `Jwt is expired` from now on; returns how many. */
  expireAccessTokens(): number;
  /** Revokes the session `refreshToken` belongs to (all its refresh tokens); false if unknown. */
  revokeSession(refreshToken: string): boolean;
  /** Empties the exchange and users rate-limit windows. */
  resetRateLimits(): void;
  /** Forgets sessions, API tokens, faults, rate limits, counters and clock moves: a fresh sandbox. */
  reset(): void;
  /**
   * What tenant `tenant`'s clients did since the start or the last `reset()`: exchanges, refreshes,
   * spent refresh tokens presented again. Tenant 0 (the default) is the default seed; 1 to the
   * `tenants` option, the seeded tenants.
   */
  counters(tenant?: number): TenantCounters;
}

export function createControl(state: SandboxState): SandboxControl {
  return {
    now: () => state.now(),
    advance(ms) {
      if (!Number.isInteger(ms) || ms < 0 || ms > 366 * 86_400_000) {
        throw new RangeError("advance(ms) takes an integer number of milliseconds from 0 to a year");
      }
      state.advance(ms);
    },
    expireAccessTokens: () => state.expireAccessTokens(),
    revokeSession(refreshToken) {
      if (typeof refreshToken !== "string") {
        throw new TypeError("revokeSession() takes a refresh token");
      }
      return state.revokeSessionOf(refreshToken);
    },
    resetRateLimits: () => state.resetRateLimits(),
    reset: () => state.reset(),
    counters(tenant = 0) {
      if (!state.tenants.has(tenant)) {
        throw new RangeError(
          `counters(tenant) takes a tenant from 0 to ${state.tenants.count} (the tenants option), such as counters(1)`,
        );
      }
      return state.counters(tenant);
    },
  };
}

/** The largest control request read: a few fields. */
const MAX_CONTROL_BYTES = 1024;

async function readControl(c: Context): Promise<Record<string, unknown> | string> {
  if ((c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return "A control request is sent as application/json";
  }
  // Read with a cap whatever the framing: a chunked body has no Content-Length to refuse early.
  const body = await readLimited(c.req.raw.body, MAX_CONTROL_BYTES).catch(() => undefined);
  if (!body) {
    return `A control request is at most ${MAX_CONTROL_BYTES} bytes`;
  }
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  return 'A control request is a JSON object such as {"action":"advance","ms":1000}';
}

/**
 * `POST /__sandbox/control` with `{"action": "advance", "ms": N}`, `{"action": "expire-tokens"}`,
 * `{"action": "revoke-session", "refreshToken": "..."}`, `{"action": "reset-rate-limits"}` or
 * `{"action": "reset"}`, or reads `{"action": "counters", "tenant": 3}`. Answers the sandbox's
 * clock after the action.
 */
export function addControlRoutes(app: Hono, state: SandboxState, control: SandboxControl): void {
  app.post(CONTROL_PATH, async (c) => {
    const request = await readControl(c);
    const refuse = (message: string) => apiError(c, 400, ErrorCode.validation, message, state.now());
    if (typeof request === "string") {
      return refuse(request);
    }
    try {
      switch (request.action) {
        case "advance":
          control.advance(request.ms as number);
          break;
        case "expire-tokens":
          return c.json({ now: state.now(), expired: control.expireAccessTokens() });
        case "revoke-session":
          return c.json({ now: state.now(), revoked: control.revokeSession(request.refreshToken as string) });
        case "reset-rate-limits":
          control.resetRateLimits();
          break;
        case "reset":
          control.reset();
          break;
        case "counters":
          return c.json({ now: state.now(), counters: control.counters((request.tenant ?? 0) as number) });
        default:
          return refuse(
            "action must be advance, expire-tokens, revoke-session, reset-rate-limits, reset or counters",
          );
      }
    } catch (error) {
      return refuse(error instanceof Error ? error.message : "The control request was refused");
    }
    return c.json({ now: state.now() });
  });
}
