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
  "a const changed": {
    before: (doc) => {
      schema(doc, "RefreshForm").properties.rcTokenType = { type: "string", const: "Bearer" };
    },
    after: (doc) => {
      schema(doc, "RefreshForm").properties.rcTokenType.const = "bearer";
    },
  },
  "a one-value enum changed": (doc) => {
    schema(doc, "RefreshForm").properties.rcTokenType.enum = ["bearer"];
  },
};

const exchange = (doc) => doc.paths["/api/auth/login/rc/accesstoken"].post;
const accounts = (doc) => doc.paths["/voice/api/v1/admin/accounts"].get;
const branch = (doc, name, index) => schema(doc, name).oneOf?.[index] ?? schema(doc, name).allOf?.[index];

// Each kind below was missed before the diff walked composition keywords, constraints, response
// headers and security.
Object.assign(breaking, {
  "a required property of an allOf part removed": (doc) => {
    const part = branch(doc, "RefreshedTokenResponse", 1);
    delete part.properties.refreshToken;
    part.required = part.required.filter((name) => name !== "refreshToken");
  },
  "a property of a oneOf branch removed from a response": (doc) =>
    delete schema(doc, "UserRole").oneOf.find((part) => part.type === "object").properties.roleType,
  "a oneOf branch added to a response": (doc) => schema(doc, "UserRole").oneOf.push({ type: "integer" }),
  "an anyOf branch removed from a request": {
    before: (doc) => {
      doc.components.parameters.flatten.schema = { anyOf: [{ type: "boolean" }, { type: "string" }] };
    },
    after: (doc) => {
      doc.components.parameters.flatten.schema = { anyOf: [{ type: "boolean" }] };
    },
  },
  "a parameter pattern added": (doc) => {
    doc.components.parameters.username.schema.pattern = "^[a-z.@]+$";
  },
  "a request field maxLength added": (doc) => {
    schema(doc, "ExchangeForm").properties.rcAccessToken.maxLength = 64;
  },
  "a request field minLength raised": (doc) => {
    schema(doc, "ExchangeForm").properties.rcAccessToken.minLength = 10;
  },
  "a parameter minimum added": {
    before: (doc) => {
      doc.components.parameters.flatten.schema = { type: "integer" };
    },
    after: (doc) => {
      doc.components.parameters.flatten.schema = { type: "integer", minimum: 1 };
    },
  },
  "a nullable removed from a request (OpenAPI 3.0 spelling)": {
    before: (doc) => {
      doc.components.parameters.flatten.schema = { type: "boolean", nullable: true };
    },
    after: (doc) => {
      doc.components.parameters.flatten.schema = { type: "boolean" };
    },
  },
  "a response field's pattern removed": (doc) =>
    delete schema(doc, "AgentDetail").properties.accountId.pattern,
  // Both parts define refreshToken: the tighter minLength of the allOf part is the one in force.
  "a response field's minLength lowered inside allOf": {
    before: (doc) => {
      branch(doc, "RefreshedTokenResponse", 1).properties.refreshToken.minLength = 8;
    },
    after: (doc) => {
      delete branch(doc, "RefreshedTokenResponse", 1).properties.refreshToken.minLength;
    },
  },
  "a response header removed": (doc) => delete users(doc).responses["429"].headers["Retry-After"],
  "a response header made optional": {
    before: (doc) => {
      doc.components.headers.RetryAfter.required = true;
    },
    after: (doc) => {
      delete doc.components.headers.RetryAfter.required;
    },
  },
  "a response header widened": (doc) => delete doc.components.headers.RetryAfter.schema.minimum,
  "an operation's security changed": (doc) => {
    accounts(doc).security = [{ apiToken: [] }];
  },
  "security added to an operation without any": (doc) => {
    exchange(doc).security = [{ bearerAuth: [] }];
  },
  "a security scheme changed": (doc) => {
    doc.components.securitySchemes.apiToken.name = "X-Api-Key";
  },
});

// Enums compare by direction: a request may lose no value (a client sends it), a response may gain
// none (a client's exhaustive switch has no case for it). The kinds below were missed before.
Object.assign(breaking, {
  "a response enum value added": (doc) =>
    schema(doc, "Account").properties.rcAccountAccess.enum.push("LOCKED"),
  "a request enum value removed": {
    before: (doc) => {
      doc.components.parameters.username.schema.enum = ["ada", "lee"];
    },
    after: (doc) => {
      doc.components.parameters.username.schema.enum = ["ada"];
    },
  },
  "a const added to a request value": (doc) => {
    doc.components.parameters.username.schema.const = "ada";
  },
  "a constraint beside a $ref": {
    before: (doc) => {
      doc.components.schemas.Login = { type: "string" };
      doc.components.parameters.username.schema = { $ref: "#/components/schemas/Login" };
    },
    after: (doc) => {
      doc.components.parameters.username.schema.maxLength = 8;
    },
  },
  "a server removed": (doc) => {
    doc.servers[0].variables.base_url.enum.pop();
  },
  "a server variable narrowed to an enum": {
    before: (doc) => {
      delete doc.servers[0].variables.base_url.enum;
    },
    after: (doc) => {
      doc.servers[0].variables.base_url.enum = ["https://engage.ringcentral.com"];
    },
  },
  "an operation's own server removed": (doc) => {
    doc.paths["/api/auth/login/admin"].post.servers[0].variables.legacy_base_url.enum.pop();
  },
});

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
  "a const changed": /rcTokenType: const changed from "Bearer" to "bearer"/,
  "a one-value enum changed": /rcTokenType: enum value "Bearer" removed/,
  "a required property of an allOf part removed":
    /RefreshedTokenResponse|refreshToken (removed|no longer always present)/,
  "a property of a oneOf branch removed from a response":
    /users: response 200\[\]\.roles\[\]<.*>: property roleType removed/,
  "a oneOf branch added to a response": /roles\[\]: integer may now come back/,
  "an anyOf branch removed from a request": /parameter query flatten: string no longer accepted/,
  "a parameter pattern added":
    /parameter query username: pattern "\^\[a-z\.@\]\+\$" added \(values narrowed\)/,
  "a request field maxLength added": /request body\.rcAccessToken: maxLength 64 added \(values narrowed\)/,
  "a request field minLength raised": /rcAccessToken: minLength changed from 1 to 10 \(values narrowed\)/,
  "a parameter minimum added": /parameter query flatten: minimum 1 added \(values narrowed\)/,
  "a nullable removed from a request (OpenAPI 3.0 spelling)":
    /flatten: type changed from boolean\|null to boolean/,
  "a response field's pattern removed": /accountId: pattern "\^\[0-9\]\+\$" removed \(values widened\)/,
  "a response field's minLength lowered inside allOf":
    /refresh: response 200\.refreshToken: minLength changed from 8 to 1 \(values widened\)/,
  "a response header removed": /users: response 429 header Retry-After removed/,
  "a response header made optional": /response 429 header Retry-After no longer always present/,
  "a response header widened": /response 429 header Retry-After: minimum 0 removed \(values widened\)/,
  "an operation's security changed": /accounts: security bearerAuth no longer accepted \(now apiToken\)/,
  "security added to an operation without any":
    /accesstoken: security no credential no longer accepted \(now bearerAuth\)/,
  "a security scheme changed": /security scheme apiToken changed \(name\)/,
  "a response enum value added": /accounts: response 200\[\]\.rcAccountAccess: enum value "LOCKED" added/,
  "a request enum value removed": /parameter query username: enum value "lee" removed/,
  "a const added to a request value": /parameter query username: const "ada" added \(values narrowed\)/,
  "a constraint beside a $ref": /parameter query username: maxLength 8 added \(values narrowed\)/,
  "a server removed": /users: server https:\/\/ringcx\.ringcentral\.com removed/,
  "a server variable narrowed to an enum":
    /accounts: server \{base_url\} \(any value of its variables\) removed/,
  "an operation's own server removed": /admin: server https:\/\/portal\.virtualacd\.biz removed/,
};

/** The old and the new document of a change: a function changes the new one only. */
function documents(change) {
  const { before = () => {}, after } = typeof change === "function" ? { after: change } : change;
  const [old, next] = [copy(), copy()];
  before(old);
  before(next);
  after(next);
  return [old, next];
}

for (const [kind, change] of Object.entries(breaking)) {
  test(`breaking: ${kind}`, () => {
    const changes = breakingChanges(...documents(change));
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

Object.assign(additive, {
  "an optional property of an allOf part added": (doc) => {
    branch(doc, "RefreshedTokenResponse", 1).properties.region = { type: "string" };
  },
  "a oneOf branch removed from a response": (doc) => schema(doc, "UserRole").oneOf.pop(),
  "a oneOf branch added to a request": (doc) => {
    doc.components.parameters.flatten.schema = { oneOf: [{ type: "boolean" }, { type: "string" }] };
  },
  "a request constraint widened": (doc) =>
    delete schema(doc, "ExchangeForm").properties.rcAccessToken.minLength,
  "a parameter maximum raised": {
    before: (doc) => {
      doc.components.parameters.flatten.schema = { type: "integer", maximum: 10 };
    },
    after: (doc) => {
      doc.components.parameters.flatten.schema = { type: "integer", maximum: 100 };
    },
  },
  "null added to a request": (doc) => {
    doc.components.parameters.flatten.schema = { type: "boolean", nullable: true };
  },
  "a constraint of one allOf part removed while another part keeps it": (doc) =>
    delete branch(doc, "RefreshedTokenResponse", 1).properties.refreshToken.minLength,
  "a response constraint narrowed": (doc) => {
    schema(doc, "AgentDetail").properties.accountName.maxLength = 200;
  },
  "a response header added": (doc) => {
    users(doc).responses["200"].headers = { "X-Request-Id": { schema: { type: "string" } } };
  },
  "a response header renamed in case only": (doc) => {
    const headers = users(doc).responses["429"].headers;
    headers["retry-after"] = headers["Retry-After"];
    delete headers["Retry-After"];
  },
  "a security alternative added": (doc) => {
    accounts(doc).security = [{ bearerAuth: [] }, { apiToken: [] }];
  },
  "security removed from an operation": (doc) => {
    accounts(doc).security = [];
  },
  "a security scheme's description changed": (doc) => {
    doc.components.securitySchemes.apiToken.description = "Other words.";
  },
});

Object.assign(additive, {
  "a response enum value removed": (doc) => {
    schema(doc, "Account").properties.rcAccountAccess.enum = ["DISABLED", "ENABLED"];
  },
  "a request enum value added": (doc) => {
    schema(doc, "ExchangeForm").properties.rcTokenType.enum = ["Bearer", "bearer"];
  },
  "a const given as the same one-value enum": {
    before: (doc) => {
      schema(doc, "ExchangeForm").properties.rcTokenType = { type: "string", const: "Bearer" };
      schema(doc, "TokenResponse").properties.tokenType = { type: "string", const: "Bearer" };
    },
    after: (doc) => {
      schema(doc, "ExchangeForm").properties.rcTokenType = { type: "string", enum: ["Bearer"] };
      schema(doc, "TokenResponse").properties.tokenType = { type: "string", enum: ["Bearer"] };
    },
  },
  "a response const given as a one-value enum beside it": (doc) => {
    schema(doc, "Account").properties.rcAccountAccess = {
      type: "string",
      const: "ENABLED",
      enum: ["ENABLED"],
    };
  },
  "a constraint beside a $ref in a response": (doc) => {
    const items = accounts(doc).responses["200"].content["application/json"].schema.items;
    items.minProperties = 1;
  },
  "a server variable that accepts any address": (doc) => {
    delete doc.servers[0].variables.base_url.enum;
  },
  "a server given as the concrete addresses of its variable": (doc) => {
    doc.servers = doc.servers[0].variables.base_url.enum.map((url) => ({ url }));
  },
  "a server added": (doc) => {
    doc.servers.push({ url: "https://eu.engage.ringcentral.com" });
  },
});

for (const [kind, change] of Object.entries(additive)) {
  test(`additive: ${kind}`, () => {
    assert.deepEqual(breakingChanges(...documents(change)), []);
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

test("an added operation passes only when a pending changeset of each package it reaches names it", async () => {
  const dir = await mkdtemp(join(tmpdir(), "ev-spec-gate-"));
  try {
    const next = copy();
    // A path and id no real operation would take, so the test holds whatever the document adds.
    next.paths["/voice/api/v1/admin/example/{exampleId}"] = {
      get: { ...users(next), operationId: "exampleGate" },
    };
    await writeFile(join(dir, "released.json"), JSON.stringify(released));
    await writeFile(join(dir, "current.json"), JSON.stringify(next));
    const files = { released: join(dir, "released.json"), current: join(dir, "current.json"), folder: dir };
    const key = "GET /voice/api/v1/admin/example/{exampleId}";
    assert.deepEqual((await gate(files)).unannounced, [
      `${key} (exampleGate): no pending changeset for @engage-voice/spec names it`,
      `${key} (exampleGate): no pending changeset for @engage-voice/client names it`,
      `${key} (exampleGate): no pending changeset for @engage-voice/sandbox names it`,
    ]);
    await writeFile(join(dir, "spec.md"), `---\n"@engage-voice/spec": minor\n---\n\n\`${key}\`: new.\n`);
    await writeFile(join(dir, "other.md"), '---\n"@engage-voice/client": minor\n---\n\nSomething else.\n');
    assert.deepEqual((await gate(files)).unannounced, [
      `${key} (exampleGate): no pending changeset for @engage-voice/client names it`,
      `${key} (exampleGate): no pending changeset for @engage-voice/sandbox names it`,
    ]);
    await writeFile(
      join(dir, "both.md"),
      '---\n"@engage-voice/client": minor\n"@engage-voice/sandbox": minor\n---\n\n`exampleGate` is typed and served.\n',
    );
    const passed = await gate(files);
    assert.deepEqual(passed.unannounced, []);
    assert.deepEqual(passed.changes, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
