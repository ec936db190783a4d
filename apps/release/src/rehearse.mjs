// The release, rehearsed: the steps a release runs, on a scratch copy of the workspace, into a
// local registry. `pnpm version-packages` and `changeset publish` are the same scripts the release
// workflow calls (a test holds the workflow to them).
import { execFile } from "node:child_process";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { plainEnv } from "./env.mjs";
import { scratchWorkspace } from "./scratch.mjs";
import { seedThirdParty } from "./seed.mjs";

const run = promisify(execFile);

/** The release's own commands, in order, as the workflow runs them after `pnpm test`. */
export const RELEASE_STEPS = [
  ["pnpm", ["version-packages"]],
  ["pnpm", ["exec", "changeset", "publish"]],
];

/**
 * Copies the workspace to `dir`, seeds the registry with the third-party packages, versions the
 * copy and publishes it; answers the public packages with the versions they were published at.
 */
export async function rehearseRelease({ root, dir, registry, seedDir }) {
  const packages = await scratchWorkspace(root, dir);
  for (const { dir: at } of packages) {
    // The one departure from the release: provenance needs the OIDC identity of a CI run, which a
    // local registry and this machine do not have (npm refuses "provider: null").
    const file = join(dir, at, "package.json");
    const manifest = JSON.parse(await readFile(file, "utf8"));
    manifest.publishConfig = { ...manifest.publishConfig, provenance: false };
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  // changeset publish tags each release in git, as it does in the workflow.
  const git = (args) =>
    run("git", ["-c", "user.name=rehearsal", "-c", "user.email=rehearsal@localhost", ...args], { cwd: dir });
  await git(["init", "-q"]);
  await git(["add", "-A"]);
  await git(["commit", "-q", "-m", "the workspace to release"]);
  const seeded = await seedThirdParty(registry, root, packages, seedDir);
  await appendFile(
    join(dir, ".npmrc"),
    `\nregistry=${registry.url}\n${registry.url.replace(/^http:/, "")}:_authToken=${registry.token}\n`,
  );
  const log = [];
  // pnpm publish packs into the temp folder and runs npm there, and npm reads the .npmrc of the nearest
  // folder above with a package.json: a stray /tmp/package.json sent every publish to
  // registry.npmjs.org. A temp folder inside the scratch workspace makes that folder its root, whose
  // .npmrc names this registry.
  const temp = join(dir, ".publish-tmp");
  await mkdir(temp, { recursive: true });
  for (const [command, args] of RELEASE_STEPS) {
    const { stdout, stderr } = await run(command, args, {
      cwd: dir,
      env: plainEnv({ CI: "true", TMPDIR: temp }),
      timeout: 180_000,
    }).catch((error) => {
      throw new Error(`${command} ${args.join(" ")} failed:\n${error.stdout}\n${error.stderr}`);
    });
    log.push(stdout, stderr);
  }
  const released = [];
  for (const { name, dir: at } of packages) {
    const manifest = JSON.parse(await readFile(join(dir, at, "package.json"), "utf8"));
    released.push({ name, dir: at, version: manifest.version, manifest });
  }
  return { released, seeded, log: log.join("\n") };
}
