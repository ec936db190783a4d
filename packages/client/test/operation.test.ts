import { describe, expect, expectTypeOf, it } from "vitest";
import { operation, operationTable } from "../src/index.js";

describe("operation", () => {
  it("answers the table's entry of every operation id", () => {
    for (const entry of operationTable) {
      expect(operation(entry.operationId)).toBe(entry);
    }
  });

  it("keeps the literal method, path and host of the id asked for", () => {
    const deleteToken = operation("deleteApiToken");
    expect(deleteToken).toEqual({
      operationId: "deleteApiToken",
      method: "delete",
      path: "/voice/api/v1/admin/token/{apiToken}",
      host: "legacy",
    });
    expectTypeOf(deleteToken.path).toEqualTypeOf<"/voice/api/v1/admin/token/{apiToken}">();
    expectTypeOf(operation("listAccounts").host).toEqualTypeOf<"main">();
  });

  it("throws for an id the document does not have", () => {
    expect(() => operation("noSuchOperation" as never)).toThrow(
      new RangeError("The document has no operation noSuchOperation"),
    );
  });
});
