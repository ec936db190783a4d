// The root README draws the layout, in the order data flows: the drawing must name every package and
// app of the repository, and name nothing that is gone, so a folder added or removed changes it too.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { blocksOf, repositoryFiles, root } from "./markdown-blocks.js";

const drawing = blocksOf("README.md").find((block) => block.code.startsWith("spec/"));
/** The folders a top-level line of the drawing starts with. */
const named = (drawing?.code ?? "")
  .split("\n")
  .filter((line) => /^\S+\/\s/.test(line) || /^\S+\/$/.test(line))
  .map((line) => line.split(/\s/)[0] as string);

/** The folders under packages/ and apps/: the packages and the apps. */
const folders = [
  ...new Set(
    repositoryFiles()
      .map((file) => /^((?:packages|apps)\/[^/]+\/)/.exec(file)?.[1])
      .filter((folder): folder is string => folder !== undefined),
  ),
];

describe("the root README's layout", () => {
  it("is drawn", () => expect(named.length).toBeGreaterThan(8));
  it("names every package and app", () => {
    expect(folders.filter((folder) => !named.includes(folder))).toEqual([]);
  });
  it("names only folders that exist", () => {
    expect(named.filter((folder) => !existsSync(new URL(folder, root)))).toEqual([]);
  });
});
