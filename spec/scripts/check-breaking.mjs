// The breaking-change gate of `pnpm test`: the bundled document against the last released one
// (`released/openapi.json`, recorded by `pnpm --filter @engage-voice/spec release:record`). A breaking
// change passes only with a major changeset for @engage-voice/spec.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { breakingChanges } from "./contract-diff.mjs";

const spec = fileURLToPath(new URL("..", import.meta.url));
const changesets = join(spec, "..", ".changeset");

/** Whether a pending changeset bumps @engage-voice/spec by a major version. */
export async function majorChangesetPending(folder = changesets) {
  for (const name of await readdir(folder)) {
    if (!name.endsWith(".md") || name === "README.md") {
      continue;
    }
    const text = await readFile(join(folder, name), "utf8");
    const front = text.split(/^---$/m)[1] ?? "";
    if (/^\s*["']?@engage-voice\/spec["']?\s*:\s*major\s*$/m.test(front)) {
      return true;
    }
  }
  return false;
}

export async function gate({
  released = join(spec, "released", "openapi.json"),
  current = join(spec, "dist", "openapi.json"),
  folder = changesets,
} = {}) {
  const [before, after] = await Promise.all(
    [released, current].map(async (p) => JSON.parse(await readFile(p, "utf8"))),
  );
  const changes = breakingChanges(before, after);
  const allowed = changes.length > 0 && (await majorChangesetPending(folder));
  return { changes, allowed, releasedVersion: before.info?.version };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { changes, allowed, releasedVersion } = await gate();
  if (changes.length === 0) {
    console.log(`contract: no breaking change since ${releasedVersion}`);
  } else if (allowed) {
    console.log(
      `contract: ${changes.length} breaking change(s) since ${releasedVersion}, with a major changeset:`,
    );
    for (const change of changes) {
      console.log(`  ${change}`);
    }
  } else {
    console.error(
      `contract: ${changes.length} breaking change(s) since ${releasedVersion} without a major changeset for @engage-voice/spec:`,
    );
    for (const change of changes) {
      console.error(`  ${change}`);
    }
    console.error(
      "Undo them, or run `pnpm changeset`, pick @engage-voice/spec, major, and name each changed operation.",
    );
    process.exit(1);
  }
}
