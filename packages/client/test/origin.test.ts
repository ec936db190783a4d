import { describe, expect, it } from "vitest";
import { checkOrigin } from "../src/internal.js";

// The one origin rule: the clients, @engage-voice/auth, the CLI's --base-url and the sandbox's
// handlers all call it, so this table is the rule for all of them.
describe("checkOrigin", () => {
  it.each([
    ["https://engage.ringcentral.com", "https://engage.ringcentral.com"],
    ["https://engage.ringcentral.com/", "https://engage.ringcentral.com"],
    ["HTTPS://Engage.RingCentral.com:443/", "https://engage.ringcentral.com"],
    ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
    ["http://[::1]:4010/", "http://[::1]:4010"],
  ])("takes %j as %j", (value, origin) => {
    expect(checkOrigin(value)).toEqual({ origin });
  });

  const origin = "https://engage.ringcentral.com";
  const place = `must be an origin without a path, query or fragment, such as ${origin}: the API's paths start at the host root`;
  it.each([
    ["nope", "must be an absolute URL such as https://engage.ringcentral.com"],
    ["", "must be an absolute URL such as https://engage.ringcentral.com"],
    ["/voice/api", "must be an absolute URL such as https://engage.ringcentral.com"],
    ["ftp://engage.ringcentral.com", "must use https: or http:, not ftp:"],
    ["file:///etc/passwd", "must use https: or http:, not file:"],
    [
      "https://alice:SECRET@engage.ringcentral.com",
      `must not contain a username or password: give the origin alone, such as ${origin}, and send credentials in headers`,
    ],
    [
      "https://alice@engage.ringcentral.com/",
      `must not contain a username or password: give the origin alone, such as ${origin}, and send credentials in headers`,
    ],
    ["https://engage.ringcentral.com/other/path", place],
    ["https://engage.ringcentral.com//", place],
    ["https://engage.ringcentral.com/?q=1", place],
    ["https://engage.ringcentral.com?q=1", place],
    ["https://engage.ringcentral.com/?", place],
    ["https://engage.ringcentral.com#", place],
    ["https://engage.ringcentral.com/#f", place],
  ])("refuses %j: %s", (value, problem) => {
    expect(checkOrigin(value)).toEqual({ problem });
    expect(problem).not.toContain("SECRET");
    expect(problem).not.toContain("alice");
  });
});
