// A package cannot be packed without its build: the prepack of every public package with build
// output is scripts/check-packable.mjs, which names what is missing and the command that writes it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publicPackages } from "@engage-voice/test-kit/workspace";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const check = join(root, "scripts", "check-packable.mjs");
const { packageManager } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
const scratch = await mkdtemp(join(tmpdir(), "ev-packable-"));

after(() => rm(scratch, { recursive: true, force: true }));

test("packing an unbuilt package fails with the missing files and the build command", async () => {
  const dir = join(scratch, "unbuilt");
  await mkdir(join(dir, "dist"), { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({
      name: "@engage-voice/example",
      version: "1.0.0",
      // The workspace's pnpm, so that corepack does not look for another outside the workspace.
      packageManager,
      bin: { example: "./dist/cli.js" },
      exports: {
        ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
        "./package.json": "./package.json",
      },
      scripts: { prepack: `node ${JSON.stringify(check)}` },
    }),
  );
  await writeFile(join(dir, "dist", "index.js"), "export {};\n");
  const failed = await run("pnpm", ["pack", "--pack-destination", scratch], { cwd: dir }).then(
    () => assert.fail("npm pack packed a package whose bin and types are missing"),
    (error) => error,
  );
  assert.match(
    failed.stderr,
    /@engage-voice\/example cannot be packed: its build output is missing \(dist\/cli\.js, dist\/index\.d\.ts\)/,
  );
  assert.match(failed.stderr, /pnpm --filter @engage-voice\/example run build/);
  await writeFile(join(dir, "dist", "cli.js"), "#!/usr/bin/env node\n");
  await writeFile(join(dir, "dist", "index.d.ts"), "export {};\n");
  await run("pnpm", ["pack", "--pack-destination", scratch], { cwd: dir });
});

test("every public package checks its build before it is packed, or builds first", async () => {
  for (const { name, dir } of await publicPackages(root)) {
    const { scripts } = JSON.parse(await readFile(join(root, dir, "package.json"), "utf8"));
    assert.match(
      scripts.prepack ?? "",
      /scripts\/check-packable\.mjs$|^pnpm run (build|bundle)$/,
      `${name}'s prepack neither checks nor builds its output`,
    );
  }
});
