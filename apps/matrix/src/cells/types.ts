// Type cells: consumer projects compiled by `tsc` against the published declaration files, under strict
// and exactOptionalPropertyTypes with skipLibCheck off, with this repository's TypeScript and the
// oldest one the README claims. `--listFiles` shows which declaration files each setting resolved,
// so a CommonJS consumer that silently got the ESM types (or the reverse) fails.
import { copyFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { run, tail } from "@engage-voice/test-kit/processes";
import type { Cell } from "../cell.ts";
import { createConsumer } from "../consumer.ts";
import { typesDir } from "../paths.ts";
import { type Published, pinned } from "../published.ts";

const require = createRequire(import.meta.url);

/**
 * The TypeScripts the type cells compile with, by the package (or alias) that installs each: this
 * repository's (7, the native compiler) and the oldest one the README claims. Declarations both of
 * them take are taken by every version between; the README's table lists these (the readme cell).
 */
export const compilerPackages = { "7.0": "typescript", "5.4": "typescript-5.4" } as const;

/** `bin/tsc` of an installed TypeScript (7's `exports` do not list it). */
function tscOf(name: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), "bin", "tsc");
}

const compilers = Object.fromEntries(
  Object.entries(compilerPackages).map(([version, name]) => [version, tscOf(name)]),
);

interface Project {
  template: "node16" | "bundler";
  label: string;
  /** Declaration files that must be part of the program. */
  declarations: string[];
  /** The project's files, each copied from a file of types/: name in the project → name there. */
  files: Record<string, string>;
  dependencies: Record<string, string>;
}

const EXPECT_TYPE = pinned("expect-type");
/** Node 20's: the oldest Node the packages claim. */
const NODE_TYPES = pinned("@types/node-20");

const projects: Project[] = [
  {
    // One program for both of Node's module formats: an ES module (.mts) imports the packages as an
    // ESM project does and a CommonJS file (.cts) as a CommonJS project does, whatever the package's
    // type, so each must resolve its own declarations. @types/node is checked once, not twice.
    template: "node16",
    label: "node16 esm + cjs",
    declarations: [
      "client/dist/index.d.ts",
      "auth/dist/index.d.ts",
      "auth/dist/node.d.ts",
      "client/dist/index.d.cts",
      "auth/dist/index.d.cts",
      "auth/dist/node.d.cts",
    ],
    files: {
      "checks.mts": "checks.ts",
      "node-checks.mts": "node-checks.ts",
      "checks.cts": "checks.ts",
      "node-checks.cts": "node-checks.ts",
    },
    dependencies: { ...EXPECT_TYPE, ...NODE_TYPES },
  },
  {
    template: "bundler",
    label: "bundler",
    declarations: ["client/dist/index.d.ts", "auth/dist/index.d.ts"],
    files: { "checks.ts": "checks.ts" },
    dependencies: EXPECT_TYPE,
  },
];

export function typeCells(work: string, published: () => Published): Cell[] {
  const installs = new Map<string, Promise<string>>();
  const install = (project: Project) => {
    let dir = installs.get(project.template);
    if (!dir) {
      dir = (async () => {
        const target = await createConsumer({
          template: join(typesDir, project.template),
          dir: join(work, `types-${project.template}`),
          published: published(),
          dependencies: project.dependencies,
        });
        for (const [file, source] of Object.entries(project.files)) {
          await copyFile(join(typesDir, source), join(target, file));
        }
        return target;
      })();
      installs.set(project.template, dir);
    }
    return dir;
  };

  return Object.entries(compilers).flatMap(([version, tsc]) =>
    projects.map(
      (project): Cell => ({
        name: `tsc ${version} ${project.label}`,
        async run() {
          const dir = await install(project);
          const result = await run(process.execPath, [tsc, "-p", "tsconfig.json", "--listFiles"], {
            cwd: dir,
          });
          const lines = result.stdout.split("\n").map((line) => line.trimEnd());
          // --listFiles prints absolute paths; everything else is a diagnostic.
          const listed = lines.filter((line) => line.startsWith("/"));
          if (result.code !== 0) {
            const diagnostics = lines.filter((line) => line !== "" && !line.startsWith("/")).join("\n");
            throw new Error(`tsc ${version} failed:\n${tail(diagnostics, 40)}${tail(result.stderr)}`);
          }
          const missing = project.declarations.filter(
            (d) => !listed.some((file) => file.endsWith(`/node_modules/@engage-voice/${d}`)),
          );
          if (missing.length > 0) {
            throw new Error(`tsc ${version} did not resolve ${missing.join(", ")}`);
          }
          return `${project.declarations.length} declaration entry points`;
        },
      }),
    ),
  );
}
