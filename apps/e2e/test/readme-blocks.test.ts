// Every TypeScript block of the packages' READMEs compiles as a user's project would compile it (strict,
// exactOptionalPropertyTypes) against the built packages: a sample that rots fails `pnpm test`. Each
// block becomes a module of its own in test/readme-blocks/.blocks/, beside globals.d.ts (the user's own
// objects the blocks take as given) and campaigns-api.ts (a generated file one block imports).
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = new URL("../../../", import.meta.url);
const here = new URL("./readme-blocks/", import.meta.url);
const READMES = ["packages/auth/README.md", "packages/store-redis/README.md", "packages/sandbox/README.md"];

/** The ```ts blocks of a README, each with the line it starts at. */
async function blocksOf(readme: string) {
  const text = await readFile(new URL(readme, root), "utf8");
  return [...text.matchAll(/^```ts\n(.*?)^```$/gms)].map((match) => ({
    code: match[1] as string,
    line: text.slice(0, match.index).split("\n").length,
  }));
}

describe("the READMEs' TypeScript blocks", () => {
  it("compile against the built packages, strict and with exactOptionalPropertyTypes", async () => {
    const folder = new URL("./.blocks/", here);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    const where = new Map<string, string>();
    for (const readme of READMES) {
      const blocks = await blocksOf(readme);
      expect(blocks.length, `${readme} has TypeScript blocks`).toBeGreaterThan(0);
      for (const [i, { code, line }] of blocks.entries()) {
        const name = `${readme.split("/")[1]}-${i + 1}.ts`;
        where.set(name, `${readme}:${line}`);
        // A module each: no block sees another's names.
        await writeFile(new URL(name, folder), `${code}\nexport {};\n`);
      }
    }
    const tsconfig = {
      extends: "../../../../../tsconfig.base.json",
      compilerOptions: { types: ["node"], noUncheckedIndexedAccess: false, noUnusedLocals: false },
      include: ["*.ts", "../globals.d.ts", "../campaigns-api.ts"],
    };
    await writeFile(new URL("tsconfig.json", folder), JSON.stringify(tsconfig));
    await writeFile(new URL("campaigns-api.ts", folder), await readFile(new URL("campaigns-api.ts", here)));
    const tsc = fileURLToPath(new URL("../node_modules/.bin/tsc", import.meta.url));
    const result = await run(tsc, ["-p", fileURLToPath(new URL("tsconfig.json", folder))]).then(
      ({ stdout }) => `OK:${stdout}`,
      (error: { stdout?: string; stderr?: string; code?: unknown }) =>
        `${error.stdout ?? ""}${error.stderr ?? ""}` || `tsc failed: ${String(error.code)}`,
    );
    // A tsc that did not run (not found, crashed) fails too: only its own success passes.
    // Name the README line of each failing block, not the generated file's.
    const named = result.replace(
      /\S*?([a-z-]+-\d+\.ts)\((\d+),/g,
      (_, file: string, n: string) => `${where.get(file)} + ${Number(n) - 1} lines (${file}:${n},`,
    );
    expect(named, "a README block does not compile").toBe("OK:");
  }, 120_000);
});
