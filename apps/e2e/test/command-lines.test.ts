// The README lines that cannot run inside `pnpm test` without a registry or a second `pnpm test`
// still cannot rot: an install line names only packages that exist (ours, or a package the README's
// own package is tested with), and a maintainer's command names a workspace package and a script it
// has (or a script file of the repository that exists, or a turbo task). The blocks are the ones under `<!-- package-install:start -->` and
// `<!-- workspace-commands:start -->` (the marker rule is markdown-blocks.ts's).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { blocksOf, markdownFiles, root } from "./markdown-blocks.js";

interface Manifest {
  name: string;
  private?: boolean;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const read = (file: string): Manifest => JSON.parse(readFileSync(new URL(file, root), "utf8"));
const workspace = new Map<string, Manifest & { folder: string }>();
for (const file of markdownFiles()) {
  const folder = file.replace(/README\.md$/, "");
  try {
    const manifest = read(`${folder}package.json`);
    workspace.set(manifest.name, { ...manifest, folder });
  } catch {
    // A README with no package beside it (a folder's guide): nothing to register.
  }
}
const root_ = read("package.json");
// turbo.json allows comments: the task names are read from its "tasks" keys.
const turboTasks = Object.fromEntries(
  [...readFileSync(new URL("turbo.json", root), "utf8").matchAll(/^ {4}"([^"]+)": \{/gm)].map((m) => [
    m[1],
    true,
  ]),
);
const ours = [...workspace.values()].filter((manifest) => !manifest.private).map(({ name }) => name);

/** The lines of a block, comments and continuation dropped. */
const linesOf = (code: string) =>
  code
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

function blocksUnder(marker: string) {
  return markdownFiles()
    .flatMap(blocksOf)
    .filter((block) => block.runBy === marker);
}

describe("install lines", () => {
  const blocks = blocksUnder("package-install");
  it("are found", () => expect(blocks.length).toBeGreaterThan(3));
  for (const block of blocks) {
    it(`${block.file}:${block.line} names packages that exist`, () => {
      const beside = workspace.get(read(`${block.file.replace(/README\.md$/, "")}package.json`).name);
      const known = new Set([
        ...ours,
        ...Object.keys({ ...beside?.devDependencies, ...beside?.peerDependencies }),
      ]);
      for (const line of linesOf(block.code)) {
        const [tool, verb, ...args] = line.split(/\s+/);
        expect(`${tool} ${verb}`, line).toMatch(/^(npm install|pnpm add)$/);
        const names = args.filter((arg) => !arg.startsWith("-"));
        expect(names.length, line).toBeGreaterThan(0);
        expect(
          names.filter((name) => !known.has(name)),
          line,
        ).toEqual([]);
      }
    });
  }
});

describe("a maintainer's commands", () => {
  const blocks = blocksUnder("workspace-commands");
  it("are found", () => expect(blocks.length).toBeGreaterThan(3));
  for (const block of blocks) {
    it(`${block.file}:${block.line} name workspace packages and their scripts`, () => {
      for (const line of linesOf(block.code)) {
        const command = line.replace(/^([A-Z_]+=("[^"]*"|\S*)\s+)+/, "");
        const script = /^bash (\S+)$/.exec(command)?.[1];
        if (script) {
          expect(() => readFileSync(new URL(script, root)), `${line}: no file ${script}`).not.toThrow();
          continue;
        }
        const task = /^pnpm exec turbo run (\S+)/.exec(command)?.[1];
        if (task) {
          expect(Object.keys(turboTasks), `${line}: no turbo task ${task}`).toContain(task);
          continue;
        }
        const filtered = /^pnpm --filter (\S+) (?:run )?(\S+)/.exec(command);
        const plain = /^pnpm (?:run )?(\S+)/.exec(command);
        expect(filtered ?? plain, `${line}: not a pnpm command`).toBeTruthy();
        if (filtered) {
          const manifest = workspace.get(filtered[1] as string);
          expect(manifest, `${line}: no workspace package ${filtered[1]}`).toBeDefined();
          if (filtered[2] !== "exec") {
            expect(Object.keys(manifest?.scripts ?? {}), line).toContain(filtered[2]);
          }
        } else {
          expect(Object.keys(root_.scripts ?? {}), line).toContain(plain?.[1]);
        }
      }
    });
  }
});
