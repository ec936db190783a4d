// The one edit distance of the SDK's "did you mean" (options, flags, commands, paths).
import { describe, expect, it } from "vitest";
import { editDistance } from "../src/edit-distance.js";

describe("editDistance", () => {
  it.each([
    ["users", "users", 0],
    ["usres", "users", 1],
    ["acounts", "accounts", 1],
    ["lgoin", "login", 1],
    ["frobnicate", "profiles", 7],
    ["", "token", 5],
  ])("%s → %s: %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});
