// Where each runtime's binary comes from. All but Node 20 (the system's) and Chromium (Debian's) are
// registry packages pinned in this package's package.json; the platform packages are used directly
// because the wrapper packages (`bun`, `deno`) fetch them in install scripts this workspace does not run.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

function packageDir(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

export interface Runtime {
  /** Shown in each cell's line. */
  label: string;
  /** Absolute path of the binary, or why it is missing. */
  binary: string | { missing: string };
}

function fromPackage(label: string, name: string, file: string): Runtime {
  const dir = packageDir(name);
  const binary = dir && join(dir, file);
  if (binary && existsSync(binary)) {
    return { label, binary };
  }
  return { label, binary: { missing: `${name} is not installed (linux-x64 only; run pnpm install)` } };
}

function fromPath(label: string, file: string, hint: string): Runtime {
  return { label, binary: existsSync(file) ? file : { missing: `${file} not found: ${hint}` } };
}

export const runtimes = {
  // pnpm puts the workspace's Node 24 first on PATH for scripts, so Node 20 is named by its path.
  node20: fromPath("node20", "/usr/bin/node", "Node 20 is the system's (Debian/NodeSource)"),
  node22: fromPackage("node22", "node-22", "bin/node"),
  node24: fromPackage("node24", "node", "bin/node"),
  bun: fromPackage("bun", "@oven/bun-linux-x64", "bin/bun"),
  deno: fromPackage("deno", "@deno/linux-x64-glibc", "deno"),
  chromium: fromPath(
    "chromium",
    process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    "apt-get install chromium",
  ),
} satisfies Record<string, Runtime>;

export type RuntimeName = keyof typeof runtimes;

export function binaryOf(runtime: Runtime): string {
  if (typeof runtime.binary === "string") {
    return runtime.binary;
  }
  throw new Error(`${runtime.label}: ${runtime.binary.missing}`);
}
