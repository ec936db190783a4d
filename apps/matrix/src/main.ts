// The whole matrix: serves the registry the release rehearsal published the public packages to
// (turbo's `@engage-voice/release#registry` builds it first), installs them from there by name with
// npm into scratch consumer projects, and runs the cells two at a time (CONCURRENCY). Prints one
// line per cell, in the cells' order, and a summary; exits 1 if any cell failed.
//
//   node src/main.ts              every cell
//   node src/main.ts node22 bun   only the cells whose name contains one of the words
//   node src/main.ts --list       the cells' names
//   MATRIX_KEEP=1                 keep the scratch projects (their folder is printed)
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Cell, formatOutcome, runCells } from "./cell.ts";
import { browserCell, bundleBrowserConsumer } from "./cells/browser.ts";
import { cliCell } from "./cells/cli.ts";
import { attwCell, publintCell } from "./cells/packaging.ts";
import { readmeCell } from "./cells/readme.ts";
import { processCell, type SandboxProvider } from "./cells/runtime.ts";
import { sandboxBin } from "./cells/sandbox-bin.ts";
import { sandboxPackageCell } from "./cells/sandbox-package.ts";
import { specPackageCell } from "./cells/spec-package.ts";
import { typeCells } from "./cells/types.ts";
import { createConsumer } from "./consumer.ts";
import { consumersDir } from "./paths.ts";
import { openRegistry, type Published, pinned, publicPackages, versionOf } from "./published.ts";
import { runtimes } from "./runtimes.ts";
import { inProcessRun } from "./sandbox.ts";
import { buildScenario } from "./scenario-build.ts";

/**
 * Cells at once: the matrix is the last task of `pnpm test` and then has the machine's two cores to
 * itself, and most of a cell is one process (npm, tsc, a runtime) that uses one. Cells that share a
 * consumer project's config.json take turns (`inTurn`).
 */
const CONCURRENCY = 2;

const args = process.argv.slice(2);
const started = performance.now();
const work = await mkdtemp(join(tmpdir(), "engage-voice-matrix-"));

let registry: Published | undefined;
const published = () => {
  if (!registry) {
    throw new Error("the rehearsed registry is not served");
  }
  return registry;
};
let scenario: string | undefined;

/**
 * Each consumer project is installed once, on first use, and shared by the cells that run it. Every
 * one gets the released client and auth, the released `packages` and the compiled scenario.
 */
const installs = new Map<string, Promise<string>>();
function consumer(
  template: string,
  options: {
    packages?: string[];
    registry?: Record<string, string>;
    prepare?: (dir: string) => Promise<void>;
  } = {},
): () => Promise<string> {
  return () => {
    let install = installs.get(template);
    if (!install) {
      install = (async () => {
        const dir = await createConsumer({
          template: join(consumersDir, template),
          dir: join(work, template),
          published: published(),
          packages: options.packages ?? [],
          dependencies: options.registry ?? {},
        });
        if (!scenario) {
          throw new Error("the scenario was not compiled");
        }
        await copyFile(scenario, join(dir, "scenario.mjs"));
        await options.prepare?.(dir);
        return dir;
      })();
      installs.set(template, install);
    }
    return install;
  };
}

const nodeProject = consumer("node");
const sandboxProject = consumer("sandbox", {
  packages: ["@engage-voice/sandbox", "@engage-voice/spec"],
  registry: pinned("msw"),
});
// The CLI's own dependencies (auth, client, sandbox) resolve to the versions released with it.
const cliProject = consumer("cli", { packages: ["@engage-voice/cli", "@engage-voice/sandbox"] });
const denoProject = consumer("deno");
const browserProject = consumer("browser", { prepare: bundleBrowserConsumer });

const ESM_BUILD = /\/@engage-voice\/client\/dist\/index\.js$/;
const CJS_BUILD = /\/@engage-voice\/client\/dist\/index\.cjs$/;

const nodeCells = (["node20", "node22", "node24"] as const).flatMap((name) => {
  const major = name.slice(4);
  return [
    processCell({
      name: `${name} import`,
      runtime: runtimes[name],
      consumer: nodeProject,
      args: () => ["main.mjs"],
      version: new RegExp(`^node ${major}\\.`),
      resolved: ESM_BUILD,
    }),
    processCell({
      name: `${name} require`,
      runtime: runtimes[name],
      consumer: nodeProject,
      args: () => ["main.cjs"],
      version: new RegExp(`^node ${major}\\.`),
      resolved: CJS_BUILD,
    }),
    cliCell({ name: `${name} cli`, runtime: runtimes[name], consumer: cliProject, major: Number(major) }),
  ];
});

/** Deno with only the project's folder: no network at all, so the fetch-handler cell proves no port is used. */
const denoArgs = (entry: string, net: string[]) => (dir: string) => [
  "run",
  "--no-lock",
  ...net,
  `--allow-read=${dir}`,
  `--allow-write=${join(dir, "stores")}`,
  entry,
];
const denoEnv = () => ({ DENO_DIR: join(work, "deno-cache"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" });
const inProcess: SandboxProvider = (task) => task(inProcessRun());
const SANDBOX_APP = /\/@engage-voice\/sandbox\/dist\/app\.js$/;

// Every public package of the workspace gets publint (strict, no message of any level) on the tarball
// npm downloads; the ones that ship typed code also Are the Types Wrong, which proves each entry point
// resolves code and declarations of the right format under node10, node16 (CJS and ESM) and bundler
// (an ESM-only package: its profile). What the manifest must say is apps/release's metadata test.
const publics = await publicPackages();
const packagingCells = publics.flatMap(({ name, code, esmOnly }) => {
  const label = name.replace("@engage-voice/", "");
  const tarball = () => published().tarball(name);
  return [
    publintCell(label, tarball),
    ...(code ? [attwCell(label, tarball, esmOnly ? "esm-only" : "strict")] : []),
  ];
});

const cells: Cell[] = [
  readmeCell(),
  ...packagingCells,
  sandboxPackageCell(sandboxProject),
  specPackageCell(sandboxProject, () => versionOf(published(), "@engage-voice/spec")),
  processCell({
    name: "sandbox bin: node20 engage-voice-sandbox, node24 import",
    runtime: runtimes.node24,
    consumer: nodeProject,
    args: () => ["main.mjs"],
    version: /^node 24\./,
    resolved: ESM_BUILD,
    sandbox: sandboxBin(sandboxProject, runtimes.node20),
  }),
  ...typeCells(work, published),
  ...nodeCells,
  processCell({
    name: "bun import",
    runtime: runtimes.bun,
    consumer: nodeProject,
    args: () => ["main.mjs"],
    version: /^bun 1\./,
    resolved: ESM_BUILD,
  }),
  processCell({
    name: "bun require",
    runtime: runtimes.bun,
    consumer: nodeProject,
    args: () => ["main.cjs"],
    version: /^bun 1\./,
    resolved: CJS_BUILD,
  }),
  processCell({
    name: "bun fetch handler",
    runtime: runtimes.bun,
    consumer: sandboxProject,
    args: () => ["handler.mjs"],
    version: /^bun 1\./,
    resolved: ESM_BUILD,
    sandboxResolved: SANDBOX_APP,
    sandbox: inProcess,
  }),
  processCell({
    name: "deno import",
    runtime: runtimes.deno,
    consumer: denoProject,
    // Only loopback network and the project's own folder; no environment, no subprocesses.
    args: denoArgs("main.mjs", ["--allow-net=127.0.0.1"]),
    env: denoEnv,
    version: /^deno 2\./,
    resolved: ESM_BUILD,
  }),
  processCell({
    name: "deno fetch handler",
    runtime: runtimes.deno,
    consumer: sandboxProject,
    args: denoArgs("handler.mjs", []),
    env: denoEnv,
    version: /^deno 2\./,
    resolved: ESM_BUILD,
    sandboxResolved: SANDBOX_APP,
    sandbox: inProcess,
  }),
  browserCell({
    name: "chromium page",
    runtime: runtimes.chromium,
    consumer: browserProject,
    page: "index.html",
  }),
  browserCell({
    name: "chromium worker",
    runtime: runtimes.chromium,
    consumer: browserProject,
    page: "worker.html",
  }),
];

if (args.includes("--list")) {
  for (const cell of cells) {
    console.log(cell.name);
  }
  await rm(work, { recursive: true, force: true });
  process.exit(0);
}

const words = args.filter((a) => !a.startsWith("--"));
const selected = words.length === 0 ? cells : cells.filter((c) => words.some((w) => c.name.includes(w)));
if (selected.length === 0) {
  console.error(`matrix: no cell matches ${words.join(", ")}; see --list`);
  await rm(work, { recursive: true, force: true });
  process.exit(2);
}

let failed = 0;
let passed = 0;
try {
  registry = await openRegistry(work);
  scenario = await buildScenario(work);
  const released = Object.entries(registry.versions).map(([name, version]) => `${name}@${version}`);
  console.log(`matrix: ${released.join(", ")} from ${registry.url}; ${selected.length} cells in ${work}`);
  await runCells(selected, CONCURRENCY, (outcome) => {
    if (outcome.passed) {
      passed++;
    } else {
      failed++;
    }
    console.log(formatOutcome(outcome));
  });
} catch (error) {
  failed++;
  console.error(`matrix: set-up failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await registry?.stop();
  if (process.env.MATRIX_KEEP) {
    console.log(`matrix: scratch projects kept in ${work}`);
  } else {
    await rm(work, { recursive: true, force: true });
  }
}

console.log(`matrix: ${((performance.now() - started) / 1000).toFixed(1)}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
