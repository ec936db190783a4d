// The users table reads roles in every form the public sources show (strings or { roleType }).
import { describe, expect, it } from "vitest";
import { roleNames } from "../src/roles.js";

describe("the ROLES cell", () => {
  it.each([
    ["strings, as two official documents and the prose show them", ["SUPER_USER", "USER"], "SUPER_USER,USER"],
    [
      "objects, as the third official document shows them",
      [{ roleType: "MANAGE_USERS", description: "x" }],
      "MANAGE_USERS",
    ],
    ["both forms in one list", ["USER", { roleType: "NO_ACCESS" }], "USER,NO_ACCESS"],
    ["no list at all", undefined, ""],
    ["items of neither form", [42, null, { roleType: 7 }, {}], ""],
  ])("%s", (_, roles, expected) => {
    expect(roleNames(roles)).toBe(expected);
  });
});
