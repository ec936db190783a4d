// A model of the contact-center host, as strict as the real one where it matters here: each refresh
// token is spent by the first call that presents it, and a spent one presented again is read as
// reuse, which revokes every session of the account (the service's answer to a stolen token). It
// answers the token calls and one API call; faults are queued by the simulation for the next token
// call. Every request waits for the scheduler, so the simulation decides when each one arrives.

export const TOKEN_LIFETIME_S = 20;
const EXCHANGE = "/api/auth/login/rc/accesstoken";
const REFRESH = "/api/auth/token/refresh";
export const API_PATH = "/voice/api/v1/admin/accounts";

export type HostFault = "lose" | "reset" | "429" | "503";

export const accountOf = (tenant: string) => `acct-${tenant}`;
export const parentTokenOf = (tenant: string) => `rc-${tenant}`;

interface Issued {
  tenant: string;
  /** The account's revocations when it was issued: a later revocation ends it. */
  era: number;
  expiresAt: number;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function tokenHost(options: {
  now: () => number;
  /** Resolves when the simulation lets the request arrive. */
  arrival: (label: string) => Promise<unknown>;
  violation: (what: string) => void;
  trace: (line: string) => void;
}) {
  const { now, arrival, violation, trace } = options;
  let serial = 0;
  const access = new Map<string, Issued>();
  const refresh = new Map<string, Issued & { spent: boolean }>();
  /** Refresh tokens the simulation handed back on purpose (a store failover that lost writes). */
  const excused = new Set<string>();
  const eras = new Map<string, number>();
  const faults: HostFault[] = [];
  const tokenCalls = new Map<string, number>();
  /** What a run exercised, for a soak's report: a simulation that never refreshes proves little. */
  const seen = { exchanges: 0, refreshes: 0, reuses: 0, lostAnswers: 0 };
  const eraOf = (tenant: string) => eras.get(tenant) ?? 0;

  function issue(tenant: string) {
    const n = ++serial;
    const iat = Math.floor(now() / 1000);
    const exp = iat + TOKEN_LIFETIME_S;
    const accessToken = `${base64url({ alg: "none" })}.${base64url({ iat, exp, n, tenant })}.sig${n}`;
    const refreshToken = `rt-${tenant}-${n}`;
    const era = eraOf(tenant);
    access.set(accessToken, { tenant, era, expiresAt: exp * 1000 });
    refresh.set(refreshToken, { tenant, era, expiresAt: Infinity, spent: false });
    tokenCalls.set(tenant, (tokenCalls.get(tenant) ?? 0) + 1);
    return Response.json({
      accessToken,
      refreshToken,
      tokenType: "Bearer",
      mainAccountId: accountOf(tenant),
      agentDetails: [{ agentId: n, accountId: accountOf(tenant), firstName: "A", lastName: tenant }],
    });
  }

  const refused = (status: number, errorCode: string) =>
    Response.json(
      { errorCode, generalMessage: errorCode, details: null, requestUri: "", timestamp: 0 },
      { status },
    );

  function exchange(form: URLSearchParams | Record<string, unknown>): Response {
    const rc = String(form instanceof URLSearchParams ? form.get("rcAccessToken") : form.rcAccessToken);
    const tenant = rc.startsWith("rc-") ? rc.slice(3) : undefined;
    if (!tenant) {
      return refused(401, "auth.bad.token");
    }
    trace(`host: exchange for ${tenant}`);
    seen.exchanges++;
    return issue(tenant);
  }

  function renew(form: URLSearchParams): Response {
    const presented = form.get("refresh_token") ?? "";
    const known = refresh.get(presented);
    if (!known) {
      trace(`host: unknown refresh token`);
      return refused(401, "auth.invalid.refresh");
    }
    if (known.spent) {
      if (!excused.has(presented)) {
        violation(`refresh token ${presented} presented twice`);
      }
      trace(`host: ${presented} presented again: every session of ${known.tenant} revoked`);
      seen.reuses++;
      eras.set(known.tenant, eraOf(known.tenant) + 1);
      return refused(401, "auth.token.reuse");
    }
    known.spent = true;
    if (known.era !== eraOf(known.tenant)) {
      return refused(401, "auth.token.revoked");
    }
    trace(`host: refresh of ${known.tenant} with ${presented}`);
    seen.refreshes++;
    return issue(known.tenant);
  }

  function api(request: Request): Response {
    const token = request.headers.get("Authorization")?.replace(/^Bearer /, "") ?? "";
    const known = access.get(token);
    if (!known || known.era !== eraOf(known.tenant)) {
      return refused(401, "auth.invalid.token");
    }
    if (now() >= known.expiresAt) {
      return new Response("Jwt is expired", { status: 401 });
    }
    return Response.json([{ accountId: accountOf(known.tenant), tenant: known.tenant }]);
  }

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const isTokenCall = path === EXCHANGE || path === REFRESH;
    const body = isTokenCall ? await request.text() : "";
    await arrival(`${request.method} ${path}`);
    if (!isTokenCall) {
      return api(request);
    }
    const fault = faults.shift();
    if (fault === "reset") {
      throw new TypeError("fetch failed (connection reset before the request was sent)");
    }
    if (fault === "429") {
      return new Response(JSON.stringify({ errorCode: "rate" }), {
        status: 429,
        headers: { "Retry-After": "2", "Content-Type": "application/json" },
      });
    }
    if (fault === "503") {
      return refused(503, "unavailable");
    }
    const form = body.startsWith("{")
      ? (JSON.parse(body) as Record<string, unknown>)
      : new URLSearchParams(body);
    const answer = path === EXCHANGE ? exchange(form) : renew(form as URLSearchParams);
    if (fault === "lose") {
      seen.lostAnswers++;
      // Processed, and the answer lost on the wire: the caller sees its deadline pass.
      throw new DOMException("The answer was lost on the wire", "TimeoutError");
    }
    return answer;
  }

  return {
    handle,
    fault: (fault: HostFault) => faults.push(fault),
    excuse: (refreshToken: string | undefined) => refreshToken && excused.add(refreshToken),
    tokenCalls: (tenant: string) => tokenCalls.get(tenant) ?? 0,
    seen,
  };
}

export type TokenHost = ReturnType<typeof tokenHost>;
