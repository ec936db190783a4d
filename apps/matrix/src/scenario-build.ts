// The scenario is written in TypeScript against the packages' types and compiled once to plain ESM
// JavaScript, so Node 20 (no type stripping), Bun, Deno and the browser all run the same file.
import { join } from "node:path";
import { build } from "esbuild";
import { appDir } from "./paths.ts";

/** Compiles into `dir` (the run's scratch folder: outside the repository, so no linter sees it). */
export async function buildScenario(dir: string): Promise<string> {
  const scenarioFile = join(dir, "scenario.mjs");
  await build({
    entryPoints: [join(appDir, "src", "scenario.ts")],
    outfile: scenarioFile,
    // Type imports only: the compiled file imports nothing, it is handed the modules.
    bundle: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  return scenarioFile;
}
