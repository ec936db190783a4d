import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { schemaPatterns } from "../src/generated/patterns.js";
import { isPermanentApiToken } from "../src/index.js";

// The one shape of a permanent API token: the document's `PermanentApiToken`. @engage-voice/auth
// (create, delete) and the CLI (create, delete) check with it, so this table is the rule for all.
describe("isPermanentApiToken", () => {
  it("reads the document's own pattern", async () => {
    const path = createRequire(import.meta.url).resolve("@engage-voice/spec/openapi.json");
    const document = JSON.parse(await readFile(path, "utf8"));
    expect(schemaPatterns.PermanentApiToken.source).toBe(
      document.components.schemas.PermanentApiToken.pattern,
    );
  });

  it.each([
    "aws80:c2353445-7d1c-4b51-9a2e-5f0c1e8b6a47",
    "sbx01:0c8f6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
    "A.b_c-d~:X-1",
    "p:1",
  ])("takes %j", (token) => {
    expect(isPermanentApiToken(token)).toBe(true);
  });

  it.each([
    [42, "not a string"],
    ["", "empty"],
    ["sbx01:", "no identifier"],
    [":abc", "no prefix"],
    ["sbx01", "no colon"],
    ["a:b:c", "two colons"],
    ["a/b:c", "a slash: the token is a path segment of the delete"],
    ["a?b:c", "a question mark"],
    ["a#b:c", "a hash"],
    ["a%2F:c", "a percent sign"],
    ...[...'"<>\\^`{|}'].map((c): [string, string] => [`a${c}b:c`, `${c}: a path carries it only encoded`]),
    ["a!b:c", "a sub-delimiter, which the prefix does not take"],
    ["sbx01:abc/../x", "a path in the identifier"],
    ["sbx01:abc_def", "an underscore in the identifier"],
    ["sbx01 :abc", "a space"],
    ["sbx01:abc\n", "a line break: it is sent as a header"],
    ["\x1b]52;c;x\x07:abc", "terminal escapes"],
    ["sbx01:abc\x1b[2J", "terminal escapes in the identifier"],
    ["sbx\u00e9:abc", "non-ASCII: a header cannot carry it"],
    ["sbx\u0000:abc", "a NUL"],
  ] as [unknown, string][])("refuses %j (%s)", (token) => {
    expect(isPermanentApiToken(token)).toBe(false);
  });
});
