import { describe, expect, it } from "vitest";
import { operationTable, pathTemplateOf, printablePath } from "../src/index.js";

describe("pathTemplateOf", () => {
  it("answers every documented path with itself, parameters filled or not", () => {
    for (const { path } of operationTable) {
      expect(pathTemplateOf(path)).toBe(path);
      expect(pathTemplateOf(path.replace(/\{[^}]+\}/g, "sbx01:3f2c9a7e-1b4d"))).toBe(path);
    }
  });

  it("hides the permanent token a delete names", () => {
    expect(pathTemplateOf("/voice/api/v1/admin/token/aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47")).toBe(
      "/voice/api/v1/admin/token/{apiToken}",
    );
  });

  it("answers undefined for what the document does not have", () => {
    expect(pathTemplateOf("/voice/api/v1/admin/token/a/b")).toBeUndefined();
    expect(pathTemplateOf("/voice/api/v1/admin/token/")).toBeUndefined();
    expect(pathTemplateOf("/voice/api/v1/admin/accounts/extra")).toBeUndefined();
    expect(pathTemplateOf("")).toBeUndefined();
  });
});

describe("printablePath", () => {
  it("prints a documented path as its template, written with its values or not, without a query", () => {
    for (const { path } of operationTable) {
      expect(printablePath(path)).toBe(path);
      expect(printablePath(`${path.replace(/\{[^}]+\}/g, "aws80:c2353445-7d1c")}?password=p%40ss#x`)).toBe(
        path,
      );
    }
  });

  it("keeps only the document's words of a path it does not have", () => {
    expect(printablePath("/voice/api/v1/admin/token/aws80:c2353445/extra?x=1")).toBe(
      "/voice/api/v1/admin/token/{…}/{…}",
    );
    expect(printablePath("/voice/api/v2/admin/users/42")).toBe("/voice/api/{…}/admin/users/{…}");
    expect(printablePath("")).toBe("");
  });
});
