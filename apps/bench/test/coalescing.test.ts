import { describe, expect, it } from "vitest";
import { coalescingSubject } from "../src/auth-rows.ts";
import { type CoalescingSubject, measureCoalescing } from "../src/coalescing.ts";

/** A toy token holder: `shared` makes concurrent renewals join one call, as a correct manager does. */
function toySubject({ shared, renews = true }: { shared: boolean; renews?: boolean }): CoalescingSubject {
  let serial = 1;
  let expired = false;
  let calls = 0;
  let pending: Promise<string> | undefined;
  const renew = async () => {
    calls += 1;
    await Promise.resolve();
    if (renews) {
      serial += 1;
    }
    expired = false;
    return `token-${serial}`;
  };
  const getToken = async () => {
    if (!expired) {
      return `token-${serial}`;
    }
    if (!shared) {
      return renew();
    }
    pending ??= renew().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  return {
    getToken,
    call: getToken,
    expire: () => {
      expired = true;
    },
    tokenCalls: () => calls,
  };
}

describe("measureCoalescing", () => {
  it("counts one token call per expiry, for each kind of caller, when renewals are shared", async () => {
    const result = await measureCoalescing(toySubject({ shared: true }), 50, 3);
    expect(result.tokenCalls).toEqual([1, 1, 1, 1, 1, 1]);
    expect(result.allGotNewToken).toBe(true);
    expect(result.expiries).toBe(3);
    expect(Number.isFinite(result.medianMs) && Number.isFinite(result.p99Ms)).toBe(true);
  });

  it("shows every extra token call when renewals are not shared", async () => {
    const result = await measureCoalescing(toySubject({ shared: false }), 50);
    expect(result.tokenCalls).toEqual([50, 50]);
  });

  it("tells when calls after the expiry still carry the old token", async () => {
    const result = await measureCoalescing(toySubject({ shared: true, renews: false }), 10);
    expect(result.allGotNewToken).toBe(false);
  });
});

describe("the auth middleware across an expiry", () => {
  it("makes one token call for 1,000 concurrent callers, all of them given or sent the new token", async () => {
    const subject = await coalescingSubject();
    if (typeof subject === "string") {
      throw new Error(subject);
    }
    const result = await measureCoalescing(subject, 1_000, 2);
    expect(result.tokenCalls).toEqual([1, 1, 1, 1]);
    expect(result.allGotNewToken).toBe(true);
  });

  it("reads back the token each request was sent with", async () => {
    const subject = await coalescingSubject();
    if (typeof subject === "string") {
      throw new Error(subject);
    }
    const sent = await subject.call();
    expect(sent).toBe(await subject.getToken());
    expect(sent.split(".")).toHaveLength(3);
  });
});
