import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { mkdtemp, open, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { fileStore } from "../src/node.js";
import { MAX_TOKEN_FILE_BYTES } from "../src/private-file.js";
import { toTokenSet } from "../src/tokens.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ev-auth-limits-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sample = (n: number, padding = "") =>
  toTokenSet(
    {
      accessToken: `access-${n}`,
      refreshToken: `refresh-${n}`,
      agentDetails: [{ accountId: "1", accountName: padding }],
    },
    n,
    null,
    undefined,
    { sequence: n },
  );

/** The JSON of a valid token set, padded with whitespace to `bytes`: a reader without a bound parses it. */
const paddedSet = (bytes: number) => {
  const json = JSON.stringify({ ...sample(1) });
  return json + " ".repeat(bytes - json.length);
};

describe("fileStore refuses what is not a token file", () => {
  it("a symlink to /dev/zero: refused from the handle's type, without reading it", async () => {
    const path = join(dir, "tokens.json");
    await symlink("/dev/zero", path);
    const error = await fileStore(path)
      .get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/not a regular file/),
    });
  });

  it("a FIFO: refused at once, not waited on for a writer", async () => {
    const path = join(dir, "tokens.json");
    await promisify(execFile)("mkfifo", [path]);
    // Should a reader block in open(), a writer's open releases it, so a failure here ends as a
    // failure and not as a thread of the shared worker stuck for ever.
    onTestFinished(async () => {
      const writer = await open(path, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
      await writer?.close();
    });
    const error = await fileStore(path)
      .get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/not a regular file/),
    });
  });

  it("a folder", async () => {
    await expect(fileStore(dir).get()).rejects.toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/not a regular file/),
    });
  });

  it(`a file larger than MAX_TOKEN_FILE_BYTES (${MAX_TOKEN_FILE_BYTES}), and reads one of exactly that size`, async () => {
    const path = join(dir, "tokens.json");
    await writeFile(path, paddedSet(MAX_TOKEN_FILE_BYTES));
    expect((await fileStore(path).get())?.refreshToken).toBe("refresh-1");
    await writeFile(path, paddedSet(MAX_TOKEN_FILE_BYTES + 1));
    await expect(fileStore(path).get()).rejects.toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(new RegExp(`more than ${MAX_TOKEN_FILE_BYTES} bytes`)),
    });
  });

  it("does not write a set it would refuse to read back, and keeps the old one", async () => {
    const path = join(dir, "tokens.json");
    const store = fileStore(path);
    await store.set(sample(1));
    await expect(store.set(sample(2, "x".repeat(MAX_TOKEN_FILE_BYTES)))).rejects.toMatchObject({
      code: "store_failed",
      message: expect.stringMatching(/not written/),
    });
    expect((await store.get())?.refreshToken).toBe("refresh-1");
  });

  it("writes a token file in place of a FIFO, as the manager does when its store cannot be read", async () => {
    const path = join(dir, "tokens.json");
    await promisify(execFile)("mkfifo", [path]);
    const store = fileStore(path);
    await store.set(sample(1));
    expect((await store.get())?.refreshToken).toBe("refresh-1");
  });
});
