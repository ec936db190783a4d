// Every released version of @engage-voice/spec's document at a stable address of the docs site:
// `spec/<version>/openapi.json` and `openapi.yaml`, and `spec/versions.json` listing them. The site is
// deployed whole at each release, so the earlier documents come back from the registry, as
// published: the release workflow runs this against npm, the release rehearsal against its local
// registry (whichever npm is configured with). Usage: node archive-versions.mjs SITE_DIR
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const NAME = "@engage-voice/spec";
const site = process.argv[2];
if (!site) {
  console.error("usage: node archive-versions.mjs SITE_DIR (the built docs, e.g. apps/docs/dist)");
  process.exit(2);
}
const { stdout } = await run("npm", ["view", NAME, "versions", "--json"]);
const listed = JSON.parse(stdout);
const versions = Array.isArray(listed) ? listed : [listed];
const scratch = await mkdtemp(join(tmpdir(), "engage-voice-spec-versions-"));
try {
  for (const version of versions) {
    const packed = JSON.parse(
      (
        await run("npm", ["pack", `${NAME}@${version}`, "--json", "--pack-destination", scratch], {
          cwd: scratch,
        })
      ).stdout,
    );
    const unpacked = join(scratch, version);
    await mkdir(unpacked);
    await run("tar", ["-xzf", join(scratch, packed[0].filename), "-C", unpacked]);
    const into = join(site, "spec", version);
    await mkdir(into, { recursive: true });
    for (const file of ["openapi.json", "openapi.yaml"]) {
      await copyFile(join(unpacked, "package", "dist", file), join(into, file));
    }
  }
  await writeFile(join(site, "spec", "versions.json"), `${JSON.stringify(versions, null, 2)}\n`);
  console.log(`${NAME}: ${versions.length} released document(s) under ${join(site, "spec")}`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
