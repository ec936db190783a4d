// `pnpm --filter @engage-voice/release registry`: the release rehearsed into a Verdaccio whose
// storage stays in .artifacts/registry/ (a turbo output), so every test that installs our packages
// as users do serves that one registry (`serveRegistry()`) instead of packing on its own.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REGISTRY_ARTIFACT, startRegistry } from "./registry.mjs";
import { rehearseRelease } from "./rehearse.mjs";

const root = fileURLToPath(new URL("../../..", import.meta.url));
await rm(REGISTRY_ARTIFACT, { recursive: true, force: true });
await mkdir(REGISTRY_ARTIFACT, { recursive: true });
const work = await mkdtemp(join(tmpdir(), "ev-release-"));
const registry = await startRegistry(REGISTRY_ARTIFACT);
try {
  const { released, seeded } = await rehearseRelease({
    root,
    dir: join(work, "workspace"),
    registry,
    seedDir: join(work, "seed"),
  });
  const summary = { released: released.map(({ name, version, dir }) => ({ name, version, dir })), seeded };
  await writeFile(join(REGISTRY_ARTIFACT, "release.json"), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `registry: ${released.map((p) => `${p.name}@${p.version}`).join(", ")}; seeded ${seeded.join(", ")}`,
  );
} finally {
  await registry.stop();
  await rm(work, { recursive: true, force: true });
}
