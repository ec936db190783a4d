// The fenced code blocks of the repository's READMEs, each with what says how it is checked: a
// TypeScript block is compiled, a JavaScript block is run, and any other block sits between
// `<!-- name:start -->` and `<!-- name:end -->` markers that a test reads by name, or carries a
// `<!-- not-run: why -->` line just above its fence. One home for that rule: the test that enforces
// it and the CONTRIBUTING line that states it both point here.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

export const root = new URL("../../../", import.meta.url);

export interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  /** The `name` of the `<!-- name:start -->` marker the block sits under, if any. */
  runBy?: string;
  /** The reason of a `<!-- not-run: why -->` line above the fence, if any. */
  notRun?: string;
}

/** The repository's files as git lists them: committed or new, never ignored build output. */
export function repositoryFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: new URL(".", root),
    encoding: "utf8",
  });
  return listed.split("\n").filter((file) => file !== "" && existsSync(new URL(file, root)));
}

/** Every README of the repository and the contributor's guide. */
export function markdownFiles(): string[] {
  return repositoryFiles()
    .filter((file) => /(^|\/)README\.md$/.test(file) || file === "CONTRIBUTING.md")
    .sort();
}

const FENCE = /^```(\S*)\s*$/;
const START = /^<!-- ([a-z0-9-]+):start -->$/;
const NOT_RUN = /^<!-- not-run: (.+) -->$/;

export function blocksOf(file: string): Block[] {
  const lines = readFileSync(new URL(file, root), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] as string);
    if (!open) {
      continue;
    }
    const end = lines.findIndex((line, j) => j > i && line.startsWith("```"));
    if (end === -1) {
      throw new Error(`${file}:${i + 1}: a code fence that never closes`);
    }
    const above =
      lines
        .slice(0, i)
        .filter((line) => line.trim() !== "")
        .at(-1) ?? "";
    const runBy = START.exec(above)?.[1];
    const notRun = NOT_RUN.exec(above)?.[1];
    blocks.push({
      file,
      line: i + 1,
      lang: open[1] || "(none)",
      code: lines.slice(i + 1, end).join("\n"),
      ...(runBy ? { runBy } : {}),
      ...(notRun ? { notRun } : {}),
    });
    i = end;
  }
  return blocks;
}

export const COMPILED = new Set(["ts", "typescript"]);
export const RUN = new Set(["js", "mjs"]);

/** The source of every test of the repository, to find the tests that read a marker by name. */
export function testSources(): { file: string; text: string }[] {
  return (
    repositoryFiles()
      // The tests, and the test kit's README runner, which the examples' tests call with block names.
      .filter(
        (file) => /(^|\/)test\/.*\.(ts|mts|mjs|js)$/.test(file) || file.startsWith("packages/test-kit/src/"),
      )
      .filter((file) => !file.includes("/.blocks/"))
      .filter((file) => !file.endsWith("readme-blocks.test.ts") && !file.endsWith("markdown-blocks.ts"))
      .map((file) => ({ file, text: readFileSync(new URL(file, root), "utf8") }))
  );
}
