// The README's "Supported runtimes" table must name the versions this matrix runs: each runtime's
// binary is asked its version, so pinning another one fails here until the table says so.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { plainEnv } from "@engage-voice/release/env";
import { runOk } from "@engage-voice/test-kit/processes";
import type { Cell } from "../cell.ts";
import { appDir } from "../paths.ts";
import { binaryOf, type RuntimeName, runtimes } from "../runtimes.ts";
import { compilerPackages } from "./types.ts";

const require = createRequire(import.meta.url);

/** `major.minor` of what `runtime --version` prints first. */
async function reported(name: RuntimeName): Promise<string> {
  const { stdout } = await runOk(binaryOf(runtimes[name]), ["--version"], {
    cwd: appDir,
    env: plainEnv(),
    timeoutMs: 30_000,
  });
  const match = /(\d+)\.(\d+)\.\d+/.exec(stdout);
  if (!match) {
    throw new Error(`${name} --version printed no version: ${stdout.trim().slice(0, 80)}`);
  }
  return `${match[1]}.${match[2]}`;
}

/** Oldest first, by their numbers (not their text: 10.0 after 9.0). */
function byVersion(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

function typescriptVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** The cells of the table's row whose first cell is `runtime`. */
function row(table: string, runtime: string): string[] {
  const line = table.split("\n").find((l) => l.startsWith(`| ${runtime} |`));
  if (!line) {
    throw new Error(`the README's runtime table has no ${runtime} row`);
  }
  return line.split("|").map((cell) => cell.trim());
}

export function readmeCell(): Cell {
  return {
    name: "readme runtimes",
    async run() {
      const readme = await readFile(join(appDir, "README.md"), "utf8");
      const table = readme.slice(readme.indexOf("## Supported runtimes"));
      const node = [await reported("node20"), await reported("node22"), await reported("node24")].join(", ");
      const bun = await reported("bun");
      const deno = await reported("deno");
      const chromium = `Chromium ${(await reported("chromium")).split(".")[0]}`;
      const typescript = Object.values(compilerPackages).map(typescriptVersion).sort(byVersion).join(", ");
      const wanted: { runtime: string; version: string; listed: (column: string) => boolean }[] = [
        { runtime: "Node.js", version: node, listed: (column) => column === node },
        { runtime: "Bun", version: bun, listed: (column) => column === bun },
        { runtime: "Deno", version: deno, listed: (column) => column === deno },
        { runtime: "Browsers", version: chromium, listed: (column) => column.startsWith(`${chromium} `) },
        {
          runtime: "TypeScript",
          version: typescript,
          listed: (column) => column.includes(`(${typescript} tested)`),
        },
      ];
      const wrong = wanted
        .map((entry) => ({ ...entry, column: row(table, entry.runtime)[2] ?? "" }))
        .filter((entry) => !entry.listed(entry.column));
      if (wrong.length > 0) {
        throw new Error(
          wrong
            .map((w) => `${w.runtime}: the matrix runs ${w.version}, the README lists ${w.column}`)
            .join("\n"),
        );
      }
      return wanted.map(({ runtime, version }) => `${runtime} ${version}`).join(", ");
    },
  };
}
