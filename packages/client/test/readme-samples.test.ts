// The README's TypeScript samples are the files of test/readme-samples/, below their marker line:
// the package's tsc checks those files (strict, exactOptionalPropertyTypes), so a sample that would
// not compile in a user's project fails the test script, and this test fails when the two differ.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const MARKER = "// README sample:\n";
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const folder = new URL("./readme-samples/", import.meta.url);
const samples = [...readme.matchAll(/^```ts\n(.*?)^```$/gms)].map(([, code]) => code as string);
const files = readdirSync(folder)
  .filter((name) => name.endsWith(".ts"))
  .sort();

describe("README samples", () => {
  it("each has its checked file", () => {
    expect(files.length, `one file in test/readme-samples/ per \`\`\`ts block of README.md`).toBe(
      samples.length,
    );
  });

  it.each(files.map((file, i) => [file, i] as const))("%s is the README's sample as written", (file, i) => {
    const text = readFileSync(new URL(file, folder), "utf8");
    expect(text, `${file} has no "${MARKER.trim()}" line`).toContain(MARKER);
    expect(
      text.slice(text.indexOf(MARKER) + MARKER.length),
      `README.md's TypeScript sample ${i + 1} differs from test/readme-samples/${file}: copy the one you changed into the other`,
    ).toBe(samples[i]);
  });
});
