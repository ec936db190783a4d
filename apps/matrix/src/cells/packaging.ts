// publint and Are the Types Wrong on the tarballs the rehearsed registry serves: what npm downloads.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { run, tail } from "@engage-voice/test-kit/processes";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import type { Cell } from "../cell.ts";
import { appDir } from "../paths.ts";

const require = createRequire(import.meta.url);
const attwCli = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist", "index.js");

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

interface AttwReport {
  analysis: {
    entrypoints: Record<string, unknown>;
    problems?: { kind: string; entrypoint?: string; resolutionKind?: string }[];
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
      const result = await run(
        process.execPath,
        [attwCli, await tarball(), "--format", "json", "--profile", profile],
        {
          cwd: appDir,
        },
      );
      let report: AttwReport;
      try {
        report = JSON.parse(result.stdout) as AttwReport;
      } catch {
        throw new Error(`attw did not answer JSON:\n${tail(result.stdout)}${tail(result.stderr)}`);
      }
      // The JSON report lists every problem; a profile only changes which ones count.
      const ignored = profile === "esm-only" ? ["node10", "node16-cjs"] : [];
      const problems = (report.analysis.problems ?? []).filter(
        (p) => !ignored.includes(p.resolutionKind ?? ""),
      );
      if (result.code !== 0 || problems.length > 0) {
        const list = problems.map(
          (p) => `${p.kind} at ${p.entrypoint ?? "?"} (${p.resolutionKind ?? "all"})`,
        );
        throw new Error(`attw found problems:\n${list.join("\n") || tail(result.stderr)}`);
      }
      return `entry points ${Object.keys(report.analysis.entrypoints).join(", ")}`;
    },
  };
}
