// What the issue asks of every public package, read from the tarball itself: ESM and CommonJS with
// declarations for each on every entry point, `sideEffects: false`, `engines`, `files`, a license,
// and a README with install and usage. publint and attw check the exports map's shape; this checks
// that nothing the issue names is missing from it.
import type { Cell } from "../cell.ts";
import { appDir } from "../paths.ts";
import { runOk } from "../run.ts";

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

async function readTarball(tarball: string) {
  const listing = await runOk("tar", ["-tzf", tarball], { cwd: appDir });
  const files = new Set(listing.stdout.split("\n").filter(Boolean));
  const read = async (name: string) =>
    (await runOk("tar", ["-xzOf", tarball, `package/${name}`], { cwd: appDir })).stdout;
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
      } else if (!files.has(`package/${file.replace(/^\.\//, "")}`)) {
        problems.push(`${where}.${key} ${file} is not packed`);
      }
    }
    return problems;
  });
}

export function contentsCell(
  label: string,
  tarball: () => string,
  nodeOnly: readonly string[] = [],
  esmOnly = false,
): Cell {
  return {
    name: `contents ${label}`,
    async run() {
      const { files, read } = await readTarball(tarball());
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
      if (!files.has("package/LICENSE")) {
        problems.push("LICENSE is not packed");
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
      if (!files.has("package/README.md")) {
        problems.push("README.md is not packed");
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
 * bin name is packed, and it carries a license and a README that says how to install it.
 */
export function dataContentsCell(label: string, tarball: () => string): Cell {
  return {
    name: `contents ${label}`,
    async run() {
      const { files, read } = await readTarball(tarball());
      const manifest = JSON.parse(await read("package.json")) as Manifest & {
        bin?: Record<string, string> | string;
      };
      const problems: string[] = [];
      if (!manifest.license) {
        problems.push("license is missing");
      }
      if (!files.has("package/LICENSE")) {
        problems.push("LICENSE is not packed");
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
        const path = `package/${target.replace(/^\.\//, "")}`;
        // A subpath pattern (`./dist/operations/*.md`) must match at least one packed file.
        const packed = path.includes("*")
          ? [...files].some((file) => {
              const [before, after] = path.split("*") as [string, string];
              return (
                file.startsWith(before) && file.endsWith(after) && file.length > before.length + after.length
              );
            })
          : files.has(path);
        if (!packed) {
          problems.push(`${target} is not packed`);
        }
      }
      const install = new RegExp(
        `(npm install|npm i|pnpm add|yarn add|bun add|npx) [^\\n]*${manifest.name}\\b`,
      );
      if (!files.has("package/README.md")) {
        problems.push("README.md is not packed");
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
