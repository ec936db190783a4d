// The breaking-change gate fails on each kind of breaking change and passes on additive ones.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { gate } from "../scripts/check-breaking.mjs";
import { breakingChanges } from "../scripts/contract-diff.mjs";

const released = JSON.parse(await readFile(new URL("../dist/openapi.json", import.meta.url), "utf8"));
const copy = () => structuredClone(released);
const users = (doc) => doc.paths["/voice/api/v1/admin/users"].get;
const schema = (doc, name) => doc.components.schemas[name];

test("the bundled document has no breaking change against itself", () => {
  assert.deepEqual(breakingChanges(released, copy()), []);
});

const breaking = {
  "an operation removed": (doc) => delete doc.paths["/voice/api/v1/admin/accounts"].get,
  "a parameter removed": (doc) => users(doc).parameters.pop(),
  "a parameter made required": (doc) => {
    doc.components.parameters.flatten.required = true;
  },
  "a required parameter added": (doc) =>
    users(doc).parameters.push({ name: "page", in: "query", required: true, schema: { type: "integer" } }),
  "a response removed": (doc) => delete users(doc).responses["403"],
  "a response media type removed": (doc) => {
    users(doc).responses["200"].content = { "text/plain": { schema: { type: "string" } } };
  },
  "a response property removed": (doc) => delete schema(doc, "TokenResponse").properties.adminUrl,
  "a response type changed": (doc) => {
    schema(doc, "TokenResponse").properties.adminId = { type: "string" };
  },
  "a response type widened": (doc) => {
    schema(doc, "TokenResponse").properties.ssoLogin = { type: ["boolean", "string"] };
  },
  "a request property made required": (doc) => {
    const form =
      doc.paths["/api/auth/login/rc/accesstoken"].post.requestBody.content[
        "application/x-www-form-urlencoded"
      ];
    const body = form.schema.$ref ? doc.components.schemas[form.schema.$ref.split("/").pop()] : form.schema;
    body.required = [...(body.required ?? []), "extra"];
    body.properties.extra = { type: "string" };
  },
  "a parameter type narrowed": (doc) => {
    doc.components.parameters.flatten.schema = { type: "string", enum: ["yes"] };
  },
  "an enum value removed": (doc) => {
    schema(doc, "Account").properties.rcAccountAccess.enum = ["DISABLED", "ENABLED"];
  },
  "a const changed": (doc) => {
    schema(doc, "RefreshForm").properties.rcTokenType.const = "bearer";
  },
};

const expected = {
  "an operation removed": /operation removed/,
  "a parameter removed": /parameter query \w+ removed/,
  "a parameter made required": /parameter query flatten made required/,
  "a required parameter added": /required parameter query page added/,
  "a response removed": /response 403 removed/,
  "a response media type removed": /response 200 application\/json removed/,
  "a response property removed": /property adminUrl removed/,
  "a response type changed": /adminId: type changed from integer to string/,
  "a response type widened": /ssoLogin: type changed from boolean to boolean\|string/,
  "a request property made required": /property extra made required/,
  "a parameter type narrowed": /parameter query flatten: type changed/,
  "an enum value removed": /enum value "REQUIRED" removed/,
  "a const changed": /const changed/,
};

for (const [kind, change] of Object.entries(breaking)) {
  test(`breaking: ${kind}`, () => {
    const next = copy();
    change(next);
    const changes = breakingChanges(released, next);
    assert.match(changes.join("\n"), expected[kind], `${kind}: ${changes.join("; ") || "not detected"}`);
  });
}

const additive = {
  "an operation added": (doc) => {
    doc.paths["/voice/api/v1/admin/skills"] = { get: { responses: { 200: { description: "ok" } } } };
  },
  "an optional parameter added": (doc) =>
    users(doc).parameters.push({ name: "page", in: "query", schema: { type: "integer" } }),
  "a response added": (doc) => {
    users(doc).responses["503"] = { description: "later" };
  },
  "a response property added": (doc) => {
    schema(doc, "TokenResponse").properties.region = { type: "string" };
  },
  "a description changed": (doc) => {
    users(doc).description = "Other words.";
  },
  "code samples added": (doc) => {
    users(doc)["x-codeSamples"] = [{ lang: "curl", source: "curl ..." }];
  },
};

for (const [kind, change] of Object.entries(additive)) {
  test(`additive: ${kind}`, () => {
    const next = copy();
    change(next);
    assert.deepEqual(breakingChanges(released, next), []);
  });
}

test("the gate fails on a breaking change without a major changeset, and passes with one", async () => {
  const dir = await mkdtemp(join(tmpdir(), "ev-spec-gate-"));
  try {
    const next = copy();
    delete next.paths["/voice/api/v1/admin/accounts"].get;
    await writeFile(join(dir, "released.json"), JSON.stringify(released));
    await writeFile(join(dir, "current.json"), JSON.stringify(next));
    const files = { released: join(dir, "released.json"), current: join(dir, "current.json"), folder: dir };
    await writeFile(join(dir, "minor.md"), '---\n"@engage-voice/spec": minor\n---\n\nA change.\n');
    const refused = await gate(files);
    assert.equal(refused.allowed, false);
    assert.match(refused.changes.join("\n"), /GET \/voice\/api\/v1\/admin\/accounts: operation removed/);
    await writeFile(
      join(dir, "major.md"),
      '---\n"@engage-voice/client": minor\n"@engage-voice/spec": major\n---\n\n`GET /voice/api/v1/admin/accounts`: removed.\n',
    );
    assert.equal((await gate(files)).allowed, true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
