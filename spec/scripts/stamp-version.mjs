// Sets `info.version` of the bundled document to the package's version, so the published contract
// says which release it is.
import { readFile, writeFile } from "node:fs/promises";
import { withInfoVersion } from "./info-version.mjs";

const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
const json = new URL("../dist/openapi.json", import.meta.url);
const yaml = new URL("../dist/openapi.yaml", import.meta.url);
const document = JSON.parse(await readFile(json, "utf8"));
document.info.version = version;
await writeFile(json, `${JSON.stringify(document, null, 2)}\n`);
await writeFile(yaml, withInfoVersion(await readFile(yaml, "utf8"), version));
