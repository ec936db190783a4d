// The generated operation table is the one list of operations: the sandbox's routes and the test
// kit's oracle answer from it. The oracle keeps its own copy of the client's path matcher (a
// dependency on the client would be a cycle), so here the two are held to the same answers.
import { readFile } from "node:fs/promises";
import { operationTable, pathTemplateOf } from "@engage-voice/client";
import { operationOf } from "@engage-voice/test-kit";
import { describe, expect, it } from "vitest";
import { LEGACY_PATHS, MAIN_PATHS } from "../src/paths.js";

const filled = (path: string) => path.replace(/\{[^}/]+\}/g, "sbx01:3f2c9a7e-1b4d");

describe("the one list of operations", () => {
  it.each(operationTable)("the oracle finds $operationId where the client's matcher does", (op) => {
    for (const path of [op.path, filled(op.path)]) {
      const found = operationOf(op.method, path);
      expect(found?.template).toBe(pathTemplateOf(path));
      expect(found?.operation.operationId).toBe(op.operationId);
    }
  });

  it.each([
    "/voice/api/v1/admin/token/a/b",
    "/voice/api/v1/admin/token/",
    "/voice/api/v1/admin/accounts/extra",
    "/",
    "",
  ])("neither the oracle nor the client knows %j", (path) => {
    expect(pathTemplateOf(path)).toBeUndefined();
    for (const { method } of operationTable) {
      expect(operationOf(method, path)).toBeUndefined();
    }
  });

  it("routes each operation of a host by its id, a path parameter in Hono's form", () => {
    for (const host of ["main", "legacy"] as const) {
      const ids = operationTable.filter((op) => op.host === host).map((op) => op.operationId);
      expect(Object.keys(host === "main" ? MAIN_PATHS : LEGACY_PATHS)).toEqual(ids);
    }
    expect(MAIN_PATHS.listAccounts).toBe("/voice/api/v1/admin/accounts");
    expect(LEGACY_PATHS.deleteApiToken).toBe("/voice/api/v1/admin/token/:apiToken");
  });

  it("the README's Behaviour table names every operation it serves, as `METHOD path`", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const behaviour = readme.split(/^## Behaviour$/m)[1]?.split(/^## /m)[0] ?? "";
    const missing = operationTable
      .map((op) => `${op.method.toUpperCase()} ${op.path}`)
      .filter((call) => !behaviour.includes(`\`${call}\``));
    expect(missing, "operations without a row in packages/sandbox/README.md's Behaviour table").toEqual([]);
  });
});
