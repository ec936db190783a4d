// openapi.yaml's path map and spec/paths/ agree: a path file left out of the map would be left out
// of the bundle, and of everything generated from it, without any other check noticing.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import { pathFile, pathMapOf, pathMapProblems } from "../scripts/path-map.mjs";

const source = await readFile(new URL("../openapi.yaml", import.meta.url), "utf8");
const files = await readdir(new URL("../paths/", import.meta.url));

test("every file of spec/paths/ is in openapi.yaml's paths, under its own path, and every entry exists", () => {
  assert.deepEqual(pathMapProblems(source, files), []);
  assert.deepEqual(
    pathMapOf(source)
      .map(({ ref }) => ref.replace(/^paths\//, ""))
      .sort(),
    files.filter((file) => file.endsWith(".yaml")).sort(),
  );
});

test("a path file missing from the map, a map entry with no file and a misnamed file are each named with the fix", () => {
  const extra = "voice_api_v1_admin_not_in_the_map.yaml";
  assert.deepEqual(pathMapProblems(source, [...files, extra]), [
    `spec/paths/${extra} is not in openapi.yaml's paths, so the bundle leaves it out; add its path there with \`$ref: paths/${extra}\``,
  ]);
  const [gone] = files.filter((file) => file.endsWith(".yaml"));
  assert.match(
    pathMapProblems(
      source,
      files.filter((file) => file !== gone),
    ).join("\n"),
    /does not exist; create it/,
  );
  const renamed = source.replace("$ref: paths/voice_api_v1_admin_users.yaml", "$ref: paths/users.yaml");
  assert.match(
    pathMapProblems(renamed, [
      ...files.filter((f) => f !== "voice_api_v1_admin_users.yaml"),
      "users.yaml",
    ]).join("\n"),
    /rename it spec\/paths\/voice_api_v1_admin_users\.yaml/,
  );
  const inline = source.replace("    $ref: paths/voice_api_v1_admin_users.yaml\n", "    get: {}\n");
  assert.match(pathMapProblems(inline, files).join("\n"), /inline in openapi.yaml; move it/);
});

test("a path's file name follows spec/paths/README.md", () => {
  assert.equal(pathFile("/voice/api/v1/admin/token/{apiToken}"), "voice_api_v1_admin_token_{apiToken}.yaml");
});
