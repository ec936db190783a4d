// Browser cells: Debian's Chromium, driven by playwright-core (no browser download), opens a page
// served from 127.0.0.1 that loads the published ESM builds (bundled for the browser, as an app's
// bundler would) and runs the scenario against the sandbox across origins, so CORS is exercised.
// The worker cell runs it in a module worker: no DOM, no Node globals.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serveStatic } from "@engage-voice/test-kit/servers";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { type Cell, inTurn } from "../cell.ts";
import { compareResult, expectedResult } from "../expect.ts";
import { binaryOf, type Runtime } from "../runtimes.ts";
import { withSandbox } from "../sandbox.ts";

/**
 * Bundles the page and the worker of an installed browser consumer, for the browser, and checks that
 * the bundle was made from the packages' ESM builds. A Node built-in reached from a main entry point
 * fails the build: esbuild does not resolve `node:*` for the browser.
 */
export async function bundleBrowserConsumer(dir: string): Promise<void> {
  const { metafile } = await build({
    metafile: true,
    absWorkingDir: dir,
    entryPoints: { page: "page.mjs", worker: "worker.mjs" },
    outdir: "bundle",
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    sourcemap: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(metafile.inputs).filter((file) => file.includes("node_modules/@engage-voice/"));
  for (const build of ["client/dist/index.js", "auth/dist/index.js"]) {
    if (!inputs.some((file) => file.endsWith(`@engage-voice/${build}`))) {
      throw new Error(`the browser bundle does not use @engage-voice/${build}: ${inputs.join(", ")}`);
    }
  }
  const commonjs = inputs.filter((file) => file.endsWith(".cjs"));
  if (commonjs.length > 0) {
    throw new Error(`the browser bundle pulled in CommonJS builds: ${commonjs.join(", ")}`);
  }
}

export interface BrowserCellOptions {
  name: string;
  runtime: Runtime;
  consumer: () => Promise<string>;
  /** The page to open, relative to the consumer folder. */
  page: "index.html" | "worker.html";
}

interface Outcome {
  result?: Record<string, unknown>;
  error?: string;
}

const LOOPBACK = /^(https?:\/\/127\.0\.0\.1(:\d+)?\/|data:|blob:)/;

export function browserCell(options: BrowserCellOptions): Cell {
  return {
    name: options.name,
    async run() {
      const executablePath = binaryOf(options.runtime);
      const dir = await options.consumer();
      const server = await serveStatic(dir);
      const browser = await chromium.launch({
        executablePath,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
        ],
      });
      try {
        // The page reads the project's config.json: the other browser cell waits its turn.
        return await inTurn(dir, () =>
          withSandbox(async ({ config, parentUserId, tokenLifetimeMs }) => {
            await writeFile(join(dir, "config.json"), JSON.stringify(config));
            const context = await browser.newContext();
            const outside: string[] = [];
            const errors: string[] = [];
            // Nothing may leave the machine: any other request is recorded and refused.
            await context.route("**/*", (route) => {
              const url = route.request().url();
              if (LOOPBACK.test(url)) {
                return route.continue();
              }
              outside.push(url);
              return route.abort();
            });
            const page = await context.newPage();
            page.on("pageerror", (error) => errors.push(error.message));
            page.on("console", (message) => {
              if (message.type() === "error") {
                errors.push(message.text());
              }
            });
            await page.goto(new URL(options.page, server.url).href);
            const handle = await page.waitForFunction(
              () => (globalThis as { matrixOutcome?: unknown }).matrixOutcome,
              null,
              {
                timeout: 60_000,
              },
            );
            const outcome = (await handle.jsonValue()) as Outcome;
            await context.close();
            if (outcome.error || !outcome.result) {
              throw new Error(`the page failed: ${outcome.error ?? "no result"}\n${errors.join("\n")}`);
            }
            if (outside.length > 0) {
              throw new Error(`requests left the machine: ${outside.join(", ")}`);
            }
            const { runtime, ...scenario } = outcome.result;
            compareResult(scenario, expectedResult(false, parentUserId, tokenLifetimeMs));
            if (typeof runtime !== "string" || !/^chromium \d+/.test(runtime)) {
              throw new Error(`expected Chromium, got ${String(runtime)}`);
            }
            return String(runtime);
          }),
        );
      } finally {
        await browser.close();
        await server.stop();
      }
    },
  };
}
