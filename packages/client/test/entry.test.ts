// The package's two entries. `@engage-voice/client` is what users call, each name documented in the
// README; `@engage-voice/client/internal` is what the SDK's other packages share with it, with no
// semver promise. A name added to either entry fails here until it is listed, and documented when public.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as main from "../src/index.js";
import * as internal from "../src/internal.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
};

describe("entries", () => {
  it("the main entry exports what users call", () => {
    expect(Object.keys(main).sort()).toEqual([
      "ApiResponseError",
      "AuthenticationError",
      "BadRequestError",
      "ClientOptionsError",
      "ConflictError",
      "MAX_ANSWER_BYTES",
      "NotFoundError",
      "PermissionDeniedError",
      "RateLimitError",
      "RequestTimeoutError",
      "ResponseParseError",
      "ServerError",
      "callDefaults",
      "callLimits",
      "createClient",
      "createLegacyClient",
      "errorOf",
      "httpMethods",
      "idempotentMethods",
      "isApiError",
      "isPermanentApiToken",
      "operation",
      "operationTable",
      "orThrow",
      "pathTemplateOf",
      "printablePath",
      "retriedStatuses",
      "retryAfterMs",
    ]);
  });

  it("the README names every value of the main entry", () => {
    const undocumented = Object.keys(main).filter((name) => !readme.includes(`\`${name}`));
    expect(undocumented, "document each in README.md, or move it to src/internal.ts").toEqual([]);
  });

  it("the internal entry exports what the other packages share, and nothing of the main entry", () => {
    expect(Object.keys(internal).sort()).toEqual([
      "GUARDED",
      "TRY_LINE",
      "backoffDelay",
      "callPolicyOf",
      "checkOrigin",
      "defaultBaseUrls",
      "defaultLogger",
      "editDistance",
      "formOperations",
      "quotableErrorCode",
      "runCall",
      "sleep",
      "unknownOption",
    ]);
    expect(Object.keys(internal).filter((name) => name in main)).toEqual([]);
  });

  it("the README says the internal entry is not public", () => {
    expect(readme).toMatch(/## Internal entry\n\n`@engage-voice\/client\/internal` is not public/);
  });

  it("package.json publishes both, the internal one for node10 resolution too", () => {
    expect(Object.keys(manifest.exports)).toEqual([".", "./internal", "./package.json"]);
    expect(manifest.typesVersions["*"]?.internal).toEqual(["./dist/internal.d.cts"]);
  });
});
