// Every fenced block of every README (and CONTRIBUTING.md) is checked, so that a sample cannot rot:
// TypeScript blocks compile as a user's project would compile them (strict, exactOptionalPropertyTypes)
// against the built packages, JavaScript blocks run, and every other block is run by the test that
// reads its markers or says why not (markdown-blocks.ts holds the rule). Each TypeScript block becomes a
// module of its own in test/readme-blocks/.blocks/, beside globals.d.ts (the user's own objects the
// blocks take as given) and campaigns-api.ts (a generated file one block imports).
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { type Block, blocksOf, COMPILED, markdownFiles, RUN, testSources } from "./markdown-blocks.js";

const run = promisify(execFile);
const here = new URL("./readme-blocks/", import.meta.url);
const blocks: Block[] = markdownFiles().flatMap(blocksOf);
const where = (block: Block) => `${block.file}:${block.line}`;
/**
 * READMEs whose TypeScript blocks their own package compiles, each as a file held equal to its block
 * with what the text around it gives (the client's readme-samples): compiled there, not twice.
 */
const COMPILED_BY_THEIR_PACKAGE: Record<string, string> = {
  "packages/client/README.md": "packages/client/test/readme-samples.test.ts",
};

describe("the READMEs' code blocks", () => {
  it("are found: the READMEs of every package have some", () => {
    for (const readme of ["packages/auth/README.md", "packages/client/README.md", "spec/README.md"]) {
      expect(
        blocks.some((block) => block.file === readme),
        readme,
      ).toBe(true);
    }
  });

  it("are each compiled, run, read by a test through their markers, or say why not", () => {
    const tests = testSources();
    const unchecked = blocks.flatMap((block) => {
      if (COMPILED.has(block.lang) || RUN.has(block.lang) || block.notRun) {
        return [];
      }
      const name = block.runBy;
      if (!name) {
        return [
          `${where(block)} (${block.lang}): no <!-- name:start --> marker a test reads, and no <!-- not-run: why --> line above it`,
        ];
      }
      const readers = tests.filter(({ text }) =>
        [`"${name}"`, `'${name}'`, `<!-- ${name}:start -->`].some((form) => text.includes(form)),
      );
      return readers.length > 0 ? [] : [`${where(block)}: no test reads the marker "${name}"`];
    });
    expect(unchecked).toEqual([]);
  });

  it("TypeScript: compile against the built packages, strict and with exactOptionalPropertyTypes", async () => {
    const folder = new URL("./.blocks/", here);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    const names = new Map<string, string>();
    const compiled = blocks.filter((b) => COMPILED.has(b.lang) && !(b.file in COMPILED_BY_THEIR_PACKAGE));
    for (const [i, block] of compiled.entries()) {
      const name = `${block.file.replaceAll(/[^a-z0-9]+/gi, "-").toLowerCase()}-${i + 1}.ts`;
      names.set(name, where(block));
      // A module each: no block sees another's names.
      await writeFile(new URL(name, folder), `${block.code}\nexport {};\n`);
    }
    expect(names.size).toBeGreaterThan(15);
    for (const test of Object.values(COMPILED_BY_THEIR_PACKAGE)) {
      expect(
        testSources().some(({ file }) => file === test),
        `${test} holds those blocks`,
      ).toBe(true);
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
      /\S*?([a-z0-9-]+-\d+\.ts)\((\d+),/g,
      (_, file: string, n: string) => `${names.get(file)} + ${Number(n) - 1} lines (${file}:${n},`,
    );
    expect(named, "a README block does not compile").toBe("OK:");
  }, 120_000);

  it("JavaScript: run as ES modules beside this package's installed packages", async () => {
    const folder = new URL("./.blocks/js/", here);
    await mkdir(folder, { recursive: true });
    const failures: string[] = [];
    for (const [i, block] of blocks.filter((b) => RUN.has(b.lang)).entries()) {
      const file = new URL(`block-${i + 1}.mjs`, folder);
      await writeFile(file, block.code);
      await run(process.execPath, [fileURLToPath(file)], { timeout: 30_000 }).catch(
        (error: { stderr?: string }) => failures.push(`${where(block)}: ${error.stderr ?? String(error)}`),
      );
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe("the getting-started page's blocks", () => {
  it("are every one a sample that pages.test.ts of apps/docs runs on the sandbox", async () => {
    const page = await readFile(new URL("../../docs/src/getting-started.html", import.meta.url), "utf8");
    const pres = [...page.matchAll(/<pre(?=[\s>])[^>]*>/g)].map((match) => match[0]);
    expect(pres.length).toBeGreaterThan(3);
    const run = /data-sample="(variables|curl|typescript)"/;
    expect(pres.filter((pre) => !run.test(pre))).toEqual([]);
  });
});
