// The release gate of `pnpm test`: the bundled document against the last released one
// (`released/openapi.json`, recorded by `pnpm --filter @engage-voice/spec release:record`). A breaking
// change passes only with a major changeset for @engage-voice/spec, and an added operation only when
// a pending changeset of each package it reaches names it: nothing else would tell users it exists.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { breakingChanges } from "./contract-diff.mjs";
import { HTTP_METHODS } from "./http-methods.mjs";

const spec = fileURLToPath(new URL("..", import.meta.url));
const changesets = join(spec, "..", ".changeset");

/** The pending changesets of a folder: the bump of each package named in the front matter, and the text. */
async function pendingChangesets(folder) {
  const found = [];
  for (const name of await readdir(folder)) {
    if (!name.endsWith(".md") || name === "README.md") {
      continue;
    }
    const [, front = "", ...body] = (await readFile(join(folder, name), "utf8")).split(/^---$/m);
    const bumps = new Map(
      [...front.matchAll(/^\s*["']?(@[\w-]+\/[\w-]+)["']?\s*:\s*(\w+)\s*$/gm)].map(([, pkg, bump]) => [
        pkg,
        bump,
      ]),
    );
    found.push({ bumps, text: body.join("---") });
  }
  return found;
}

/** Whether a pending changeset bumps @engage-voice/spec by a major version. */
export async function majorChangesetPending(folder = changesets) {
  return (await pendingChangesets(folder)).some(({ bumps }) => bumps.get("@engage-voice/spec") === "major");
}

/** The packages an added operation reaches: the contract, the client's types and table, the sandbox's routes. */
export const ANNOUNCED_IN = ["@engage-voice/spec", "@engage-voice/client", "@engage-voice/sandbox"];

/** The operations of `after` that `before` does not have: `METHOD path` and the operationId. */
export function addedOperations(before, after) {
  const keys = (document) =>
    Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => ({
        key: `${method.toUpperCase()} ${path}`,
        operationId: item[method].operationId,
      })),
    );
  const old = new Set(keys(before).map(({ key }) => key));
  return keys(after).filter(({ key }) => !old.has(key));
}

/** Each added operation that a package of `ANNOUNCED_IN` has no pending changeset naming (by `METHOD path` or id). */
export async function unannouncedOperations(added, folder = changesets) {
  const pending = await pendingChangesets(folder);
  const problems = [];
  for (const { key, operationId } of added) {
    for (const pkg of ANNOUNCED_IN) {
      const named = pending.some(
        ({ bumps, text }) => bumps.has(pkg) && (text.includes(key) || text.includes(operationId)),
      );
      if (!named) {
        problems.push(`${key} (${operationId}): no pending changeset for ${pkg} names it`);
      }
    }
  }
  return problems;
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
  const unannounced = await unannouncedOperations(addedOperations(before, after), folder);
  return { changes, allowed, unannounced, releasedVersion: before.info?.version };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { changes, allowed, unannounced, releasedVersion } = await gate();
  if (unannounced.length > 0) {
    console.error(`contract: operations added since ${releasedVersion} that no release note announces:`);
    for (const problem of unannounced) {
      console.error(`  ${problem}`);
    }
    console.error(
      "Run `pnpm changeset`, pick each package named, and name the operation (`GET /path`) in the text (see .changeset/README.md).",
    );
    process.exitCode = 1;
  }
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
