// publint and Are the Types Wrong on the tarballs the rehearsed registry serves: what npm downloads.
// Both run in this process, on the tarball's bytes: attw's CLI is a wrapper of the same checkPackage,
// and a process of its own per package loaded its TypeScript again each time (about 0.6 CPU-s each).
import { readFile } from "node:fs/promises";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import type { Cell } from "../cell.ts";

/** Clean means no message at all: errors, warnings and suggestions alike. */
export function publintCell(label: string, tarball: () => Promise<string>): Cell {
  return {
    name: `publint ${label}`,
    async run() {
      const data = await readFile(await tarball());
      const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
      const { messages, pkg } = await publint({
        pack: { tarball: buffer },
        level: "suggestion",
        strict: true,
      });
      if (messages.length > 0) {
        const lines = messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code}`);
        throw new Error(`publint found ${messages.length} problem(s):\n${lines.join("\n")}`);
      }
      return `${pkg.name}@${pkg.version}`;
    },
  };
}

/**
 * The strict profile (node10, node16 from CommonJS and from ESM, and bundler resolution), or
 * `esm-only` for a package that ships no CommonJS.
 */
export function attwCell(
  label: string,
  tarball: () => Promise<string>,
  profile: "strict" | "esm-only" = "strict",
): Cell {
  return {
    name: `attw ${label}`,
    async run() {
      const analysis = await checkPackage(createPackageFromTarballData(await readFile(await tarball())));
      if (!analysis.types) {
        throw new Error(`attw found no types in ${analysis.packageName}@${analysis.packageVersion}`);
      }
      // The analysis lists every problem; a profile only changes which ones count (as attw's
      // --profile does: esm-only ignores the node10 and node16-cjs resolutions).
      const ignored = profile === "esm-only" ? ["node10", "node16-cjs"] : [];
      const problems = analysis.problems.filter(
        (p) => !("resolutionKind" in p) || !ignored.includes(p.resolutionKind),
      );
      if (problems.length > 0) {
        const list = problems.map(
          (p) =>
            `${p.kind} at ${"entrypoint" in p ? p.entrypoint : "?"} (${"resolutionKind" in p ? p.resolutionKind : "all"})`,
        );
        throw new Error(`attw found problems:\n${list.join("\n")}`);
      }
      return `entry points ${Object.keys(analysis.entrypoints).join(", ")}`;
    },
  };
}
