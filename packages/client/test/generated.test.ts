// The drift check (`pnpm --filter @engage-voice/client generate`, run by `pnpm test` through turbo)
// must fail when a generated file is edited by hand.
import { execFile } from "node:child_process";
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = new URL("../scripts/generate.mjs", import.meta.url).pathname;
const generated = new URL("../src/generated/", import.meta.url).pathname;
let copy: string;

async function check(dir: string) {
  return run(process.execPath, [script, "--check", "--dir", dir]).then(
    ({ stdout }) => ({ ok: true, output: stdout }),
    (error: { stderr: string }) => ({ ok: false, output: error.stderr }),
  );
}

afterEach(() => rm(copy, { recursive: true, force: true }));

describe("generated code drift check", () => {
  it("passes on the committed files", async () => {
    copy = await mkdtemp(join(tmpdir(), "generated-"));
    await cp(generated, copy, { recursive: true });
    expect(await check(copy)).toMatchObject({ ok: true });
  });

  it("fails when a generated file is edited by hand", async () => {
    copy = await mkdtemp(join(tmpdir(), "generated-"));
    await cp(generated, copy, { recursive: true });
    await appendFile(join(copy, "schema.ts"), "\nexport type HandEdit = true;\n");
    const result = await check(copy);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("schema.ts: differs from what the spec generates");
  });
});
