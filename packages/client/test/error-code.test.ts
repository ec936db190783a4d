import { describe, expect, it } from "vitest";
import { quotableErrorCode } from "../src/internal.js";

// The one rule for quoting an error body's `errorCode`: @engage-voice/auth's errors and the CLI's
// lines both call it, so this table is the rule for both.
describe("quotableErrorCode", () => {
  it.each([
    "access.denied.exception",
    "authentication.exception",
    "rate.limit.exception",
    "sandbox.injected.fault",
    "token_not.found",
    "a.b",
    `a${"b".repeat(30)}.${"c".repeat(30)}.${"d".repeat(17)}`,
  ])("quotes %j", (code) => {
    expect(quotableErrorCode(code)).toBe(code);
  });

  it.each([
    [undefined, "absent"],
    [42, "not a string"],
    ["", "empty"],
    ["exception", "one word"],
    ["Access.Denied", "upper case"],
    ["access denied.x", "a space"],
    ["access..denied", "an empty word"],
    ["1access.denied", "a leading digit"],
    ["access.denied.", "a trailing dot"],
    ["a.b.c.d.e.f.g.h", "more than seven words"],
    [`a${"b".repeat(31)}.c`, "a word longer than 31"],
    [`a${"b".repeat(30)}.${"c".repeat(30)}.${"d".repeat(18)}`, "longer than 80"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "a JWT's shape, upper case"],
  ] as [unknown, string][])("does not quote %j (%s)", (code) => {
    expect(quotableErrorCode(code)).toBeUndefined();
  });

  it("does not quote a code that holds, or is held by, a credential the call carried", () => {
    expect(quotableErrorCode("token.abcd1234.exception", ["abcd1234"])).toBeUndefined();
    expect(quotableErrorCode("sbx.abcd", ["sbx.abcd1234"])).toBeUndefined();
    expect(quotableErrorCode("access.denied.exception", ["abcd1234", ""])).toBe("access.denied.exception");
    // A credential this short would match too many codes to mean anything.
    expect(quotableErrorCode("access.denied.exception", ["den"])).toBe("access.denied.exception");
  });
});
