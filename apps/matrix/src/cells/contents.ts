// What the issue asks of every public package, read from the package as npm installed it from the
// rehearsed registry: ESM and CommonJS with declarations for each on every entry point,
// `sideEffects: false`, `engines`, `files`, a license, and a README with install and usage. publint
// and attw check the exports map's shape; this checks that nothing the issue names is missing from it.
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Cell } from "../cell.ts";

type Target = { types?: unknown; default?: unknown };
type Entry = { import?: Target; require?: Target } | string;

interface Manifest {
  name?: string;
  license?: string;
  sideEffects?: unknown;
  engines?: { node?: string };
  files?: unknown;
  exports?: Record<string, Entry>;
}

const FORMATS = {
  import: { code: /\.js$/, types: /\.d\.ts$/ },
  require: { code: /\.cjs$/, types: /\.d\.cts$/ },
} as const;

/** The files of the package installed in `project` (paths relative to its folder), and a reader. */
async function readInstalled(project: () => Promise<string>, name: string) {
  const dir = join(await project(), "node_modules", name);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Set(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      // What npm installed for the package itself, should it nest any, is not the package's.
      .filter((file) => !file.startsWith("node_modules/")),
  );
  const read = (file: string) => readFile(join(dir, file), "utf8");
  return { files, read };
}

/** The problems of one entry point's conditions. */
function entryProblems(subpath: string, entry: Entry, files: Set<string>, esmOnly = false): string[] {
  if (typeof entry === "string") {
    return [`exports["${subpath}"] is a single file, not an import/require pair`];
  }
  if (esmOnly) {
    // An ESM-only package lists `types` and `default` for each entry point.
    const target = { import: entry as Target };
    return entryProblems(subpath, target, files).filter((problem) => !problem.includes(".require"));
  }
  return Object.entries(FORMATS).flatMap(([condition, pattern]) => {
    const target = entry[condition as keyof typeof FORMATS];
    const where = `exports["${subpath}"].${condition}`;
    if (!target) {
      return [`${where} is missing`];
    }
    const problems: string[] = [];
    if (Object.keys(target)[0] !== "types") {
      problems.push(`${where} does not list "types" first`);
    }
    for (const [key, want] of [
      ["types", pattern.types],
      ["default", pattern.code],
    ] as const) {
      const file = target[key];
      if (typeof file !== "string" || !want.test(file)) {
        problems.push(`${where}.${key} is ${String(file)}`);
      } else if (!files.has(file.replace(/^\.\//, ""))) {
        problems.push(`${where}.${key} ${file} was not published`);
      }
    }
    return problems;
  });
}

export function contentsCell(
  name: string,
  project: () => Promise<string>,
  nodeOnly: readonly string[] = [],
  esmOnly = false,
): Cell {
  return {
    name: `contents ${name.replace("@engage-voice/", "")}`,
    async run() {
      const { files, read } = await readInstalled(project, name);
      const manifest = JSON.parse(await read("package.json")) as Manifest;
      const problems: string[] = [];
      if (manifest.sideEffects !== false) {
        problems.push("sideEffects is not false");
      }
      if (!manifest.engines?.node) {
        problems.push("engines.node is missing");
      }
      if (!Array.isArray(manifest.files)) {
        problems.push("files is missing");
      }
      if (!manifest.license) {
        problems.push("license is missing");
      }
      if (!files.has("LICENSE")) {
        problems.push("LICENSE was not published");
      }
      const entries = Object.entries(manifest.exports ?? {}).filter(
        ([subpath]) => subpath !== "./package.json",
      );
      if (!entries.some(([subpath]) => subpath === ".")) {
        problems.push('exports has no "."');
      }
      for (const [subpath, entry] of entries) {
        problems.push(...entryProblems(subpath, entry, files, esmOnly));
      }
      for (const subpath of nodeOnly) {
        if (!entries.some(([s]) => s === subpath)) {
          problems.push(`the Node-only subpath ${subpath} is not exported`);
        }
      }
      if (!files.has("README.md")) {
        problems.push("README.md was not published");
      } else {
        const readme = await read("README.md");
        const install = new RegExp(
          `(npm install|npm i|pnpm add|yarn add|bun add) [^\\n]*${manifest.name}\\b`,
        );
        if (!install.test(readme)) {
          problems.push(`README.md has no install command for ${manifest.name}`);
        }
        if (!/```(ts|js|typescript)\n[\s\S]*?from "@engage-voice\//.test(readme)) {
          problems.push("README.md has no usage example importing the package");
        }
      }
      if (problems.length > 0) {
        throw new Error(`${manifest.name} is missing what users need:\n${problems.join("\n")}`);
      }
      return `${entries.map(([subpath]) => subpath).join(", ")}: ${esmOnly ? "ESM only" : "ESM + CJS"}, each with types`;
    },
  };
}

/**
 * A package without typed code: data (the bundled contract) or a command line. What its exports and
 * bin name is installed, and it carries a license and a README that says how to install it.
 */
export function dataContentsCell(name: string, project: () => Promise<string>): Cell {
  return {
    name: `contents ${name.replace("@engage-voice/", "")}`,
    async run() {
      const { files, read } = await readInstalled(project, name);
      const manifest = JSON.parse(await read("package.json")) as Manifest & {
        bin?: Record<string, string> | string;
      };
      const problems: string[] = [];
      if (!manifest.license) {
        problems.push("license is missing");
      }
      if (!files.has("LICENSE")) {
        problems.push("LICENSE was not published");
      }
      if (!Array.isArray(manifest.files)) {
        problems.push("files is missing");
      }
      const exported = Object.values(manifest.exports ?? {}).filter(
        (t): t is string => typeof t === "string",
      );
      const bins = typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {});
      const targets = [...exported, ...bins];
      if (targets.length === 0) {
        problems.push("neither exports nor bin names a file");
      }
      for (const target of targets) {
        const path = target.replace(/^\.\//, "");
        // A subpath pattern (`./dist/operations/*.md`) must match at least one installed file.
        const found = path.includes("*")
          ? [...files].some((file) => {
              const [before, after] = path.split("*") as [string, string];
              return (
                file.startsWith(before) && file.endsWith(after) && file.length > before.length + after.length
              );
            })
          : files.has(path);
        if (!found) {
          problems.push(`${target} was not published`);
        }
      }
      const install = new RegExp(
        `(npm install|npm i|pnpm add|yarn add|bun add|npx) [^\\n]*${manifest.name}\\b`,
      );
      if (!files.has("README.md")) {
        problems.push("README.md was not published");
      } else if (!install.test(await read("README.md"))) {
        problems.push(`README.md has no install command for ${manifest.name}`);
      }
      if (problems.length > 0) {
        throw new Error(`${manifest.name} is missing what users need:\n${problems.join("\n")}`);
      }
      return targets.join(", ");
    },
  };
}
