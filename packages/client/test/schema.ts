import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);
const document = JSON.parse(readFileSync(require.resolve("@engage-voice/spec/openapi.json"), "utf8"));
const ajv = new Ajv2020({ strict: false, allErrors: true });
// OpenAPI formats that JSON Schema does not define; the types already constrain them.
for (const format of ["int32", "int64", "password"]) {
  ajv.addFormat(format, true);
}
ajv.addSchema(document, "openapi.json");

/** Throws with Ajv's reasons unless `value` is valid against `#/components/schemas/<name>` of the bundled document. */
export function assertSchema(name: string, value: unknown): void {
  const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
  if (!validate) {
    throw new Error(`no schema ${name}`);
  }
  if (!validate(value)) {
    throw new Error(`${name}: ${ajv.errorsText(validate.errors)}`);
  }
}

export const bundled = document;
