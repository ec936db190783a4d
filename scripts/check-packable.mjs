#!/usr/bin/env node
// The `prepack` of every public package with build output: npm and pnpm run it before they pack or
// publish, so a tarball whose package.json names files the build has not written (a bin, an export,
// its types) cannot be made. It fails with the missing files and the command that writes them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Every file a manifest promises users: `main`, `module`, `types`, each bin and export target. */
export function promisedFiles(manifest) {
  const found = new Set();
  const walk = (value) => {
    if (typeof value === "string") {
      found.add(value);
    } else if (value && typeof value === "object") {
      for (const inner of Object.values(value)) {
        walk(inner);
      }
    }
  };
  walk([manifest.main, manifest.module, manifest.types, manifest.bin, manifest.exports]);
  found.delete("./package.json");
  return [...found].map((file) => file.replace(/^\.\//, "")).sort();
}

/** The promised files missing from `dir`; an empty list when the package can be packed. */
export function missingFiles(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return {
    name: manifest.name,
    missing: promisedFiles(manifest).filter((file) => !existsSync(join(dir, file))),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { name, missing } = missingFiles(process.cwd());
  if (missing.length > 0) {
    console.error(
      `${name} cannot be packed: its build output is missing (${missing.join(", ")}).\n` +
        `Build it first: pnpm --filter ${name} run build (or pnpm build for the whole workspace).`,
    );
    process.exit(1);
  }
}
