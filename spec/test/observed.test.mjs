// Every field whose type public sources disagree on (the last table of the public facts) is marked
// `x-observed: true` on the field itself and names its sources, so a reader never takes a guess for a
// guarantee.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

const document = JSON.parse(await readFile(new URL("../dist/openapi.json", import.meta.url), "utf8"));
const schemas = document.components.schemas;

const disputed = {
  "MainAccount.isActive": schemas.MainAccount.properties.isActive,
  "Account.startDate": schemas.Account.properties.startDate,
  "Account.endDate": schemas.Account.properties.endDate,
  "Account.primaryTimezone": schemas.Account.properties.primaryTimezone,
  "RegionalSettings.timezone": schemas.RegionalSettings.properties.timezone,
  "RegionalSettings.timezoneName": schemas.RegionalSettings.properties.timezoneName,
  "RegionalSettings.homeCountry": schemas.RegionalSettings.properties.homeCountry,
  "RegionalSettings.greetingLanguage": schemas.RegionalSettings.properties.greetingLanguage,
  "RegionalSettings.homeCountryCode": schemas.RegionalSettings.properties.homeCountryCode,
  "RegionalSettings.timeFormat": schemas.RegionalSettings.properties.timeFormat,
  "User.creationDate": schemas.User.properties.creationDate,
  "User.roles": schemas.User.properties.roles,
  UserRole: schemas.UserRole,
  "AgentDetail.agentGroupId": schemas.AgentDetail.properties.agentGroupId,
};

for (const [name, schema] of Object.entries(disputed)) {
  test(`${name} is marked observed and names its sources`, () => {
    assert.equal(schema?.["x-observed"], true, `${name}: x-observed`);
    assert.match(schema.description ?? "", /Sources/, `${name}: its description names its sources`);
  });
}

test("no description cites a source the public facts do not show", () => {
  const text = JSON.stringify(document);
  for (const unsupported of [
    "earlier observed samples show a boolean",
    "observed samples show text",
    "documentation names time zones by text",
    "Usually an object",
    // Two official documents type a role as a string holding a serialized Role object, not a plain role type.
    "show plain strings",
    "as a plain string",
  ]) {
    assert.equal(text.includes(unsupported), false, unsupported);
  }
});

test("a role is a string or an object with roleType, as the sources disagree", () => {
  const branches = schemas.UserRole.oneOf.map((branch) => branch.type).sort();
  assert.deepEqual(branches, ["object", "string"]);
});

test("agentGroupId is an integer or null: the official documents say integer, the sample null", () => {
  assert.deepEqual([...schemas.AgentDetail.properties.agentGroupId.type].sort(), ["integer", "null"]);
});

test("greetingLanguage, homeCountryCode and timeFormat are strings, as all three official documents type them", () => {
  for (const name of ["greetingLanguage", "homeCountryCode", "timeFormat"]) {
    const field = schemas.RegionalSettings.properties[name];
    assert.equal(field.type, "string", name);
    assert.doesNotMatch(field.description, /int32|integer/, name);
  }
});
