// "Did you mean": the nearest known word, or none when nothing is near enough to be worth saying.
import { describe, expect, it } from "vitest";
import { closest, closestPath } from "../src/suggest.js";

describe("closest", () => {
  const commands = ["login", "token", "accounts", "users", "api-tokens", "logout", "profiles"];
  it.each([
    ["acounts", "accounts"],
    ["Users", "users"],
    ["tokn", "token"],
    ["lo", "login"],
    ["prof", "profiles"],
    ["api-token", "api-tokens"],
    ["logotu", "logout"],
    ["frobnicate", undefined],
    ["ls", undefined],
    ["x", undefined],
    ["pwsh", undefined],
    ["sbx01:00000000-0000-0000-0000-000000000000", undefined],
  ])("%s → %s", (typed, expected) => {
    expect(closest(typed, typed === "pwsh" ? ["bash", "zsh", "fish"] : commands)).toBe(expected);
  });
});

describe("closestPath", () => {
  const templates = [
    "/voice/api/v1/admin/accounts",
    "/voice/api/v1/admin/users",
    "/voice/api/v1/admin/token",
    "/voice/api/v1/admin/token/{apiToken}",
  ];
  it.each([
    ["/voice/api/v1/admin/acounts", "/voice/api/v1/admin/accounts"],
    ["/voice/api/v1/admin/Users", "/voice/api/v1/admin/users"],
    ["/voice/api/v1/admin/accounts/", "/voice/api/v1/admin/accounts"],
    [
      "/voice/api/v1/admin/tokn/sbx01:00000000-0000-0000-0000-000000000000",
      "/voice/api/v1/admin/token/{apiToken}",
    ],
    ["/voice/api/v2/admin/tokens", "/voice/api/v1/admin/token"],
    ["/voice/api/v1/admin/campaigns", undefined],
    ["/voice/api/v1/accounts", undefined],
  ])("%s → %s", (typed, expected) => {
    expect(closestPath(typed, templates)).toBe(expected);
  });
});
