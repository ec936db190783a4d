import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writePrivateFile } from "../src/node.js";

// The one writer of a private file: the file store's token file and the CLI's config.json both go
// through it, so these are the rules of both.
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ev-private-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const posix = process.platform !== "win32";
const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe("writePrivateFile", () => {
  it.each([
    ["a new file in an existing folder", "file.json", undefined],
    ["a new file in a new folder, made 0700", "new/deeper/file.json", "new/deeper"],
  ])("writes %s with mode 0600, leaving no temporary file", async (_, name, folder) => {
    const path = join(dir, name);
    await writePrivateFile(path, "text\n");
    expect(await readFile(path, "utf8")).toBe("text\n");
    if (posix) {
      expect(await mode(path)).toBe(0o600);
      if (folder) {
        expect(await mode(join(dir, folder))).toBe(0o700);
      }
    }
    expect((await readdir(join(path, ".."))).filter((entry) => entry.endsWith(".tmp"))).toEqual([]);
  });

  it("replaces a readable file by a private one in one rename", async () => {
    const path = join(dir, "file.json");
    await writeFile(path, "old", { mode: 0o644 });
    await writePrivateFile(path, "new");
    expect(await readFile(path, "utf8")).toBe("new");
    if (posix) {
      expect(await mode(path)).toBe(0o600);
    }
  });

  it("on failure throws, keeps the old file and removes its temporary file", async () => {
    // A folder where the file should be: the rename fails after the temporary file was written.
    const path = join(dir, "taken");
    await mkdir(path);
    await expect(writePrivateFile(path, "new")).rejects.toMatchObject({ code: expect.any(String) });
    expect(await readdir(dir)).toEqual(["taken"]);
  });
});
