// The file store's lock under contention and faults: stale takeover by many managers at once,
// dangling symlinks, swapped-in symlinks, directories, and a lock that is not ours. Processes sharing
// one token file are tested in apps/e2e.
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fileStore } from "../src/node.js";
import { toTokenSet } from "../src/tokens.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ev-lock-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const age = async (path: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  await utimes(path, then, then);
};

describe("the lock file", () => {
  it("a stale lock taken over by many managers at once lets one holder in at a time", async () => {
    for (let trial = 0; trial < 20; trial++) {
      const path = join(dir, `tokens-${trial}.json`);
      await writeFile(`${path}.lock`, "crashed-holder");
      await age(`${path}.lock`, 60_000);
      let inside = 0;
      let most = 0;
      // The default staleLockMs (15 s): only the 60 s old lock is stale, never a live holder that a
      // busy machine slowed down.
      const stores = Array.from({ length: 8 }, () => fileStore(path));
      await Promise.all(
        stores.map((store) =>
          store.lock?.(async () => {
            inside++;
            most = Math.max(most, inside);
            await pause(2);
            inside--;
          }),
        ),
      );
      expect(most).toBe(1);
    }
    // Twenty trials of eight managers on real files: the verdict is the count, the bound only the run's.
  }, 60_000);

  it("takes a dangling symlink at the lock path as stale", async () => {
    const path = join(dir, "tokens.json");
    await symlink(join(dir, "nowhere"), `${path}.lock`);
    const store = fileStore(path, { lockTimeoutMs: 2_000 });
    expect(await store.lock?.(async () => "held")).toBe("held");
  });

  it("fails with store_failed, not a raw fs error, when the lock path is a directory", async () => {
    const path = join(dir, "tokens.json");
    await mkdir(`${path}.lock`);
    const error = await fileStore(path)
      .lock?.(async () => "held")
      .catch((e) => e);
    expect(error).toMatchObject({ code: "store_failed" });
    expect(error.message).toMatch(/lock path is a directory/);
  });

  describe("the heartbeat", () => {
    // Fake intervals only: the heartbeat fires when the test says, and the file system stays real.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    const mtimeOf = async (path: string) => (await lstat(path)).mtimeMs;

    it("touches its own lock while the holder works", async () => {
      const path = join(dir, "tokens.json");
      await fileStore(path, { staleLockMs: 3_000 }).lock?.(async () => {
        await age(`${path}.lock`, 60_000);
        const aged = await mtimeOf(`${path}.lock`);
        await vi.advanceTimersByTimeAsync(1_000);
        await vi.waitFor(async () => expect(await mtimeOf(`${path}.lock`)).toBeGreaterThan(aged), {
          timeout: 60_000,
        });
      });
    });

    it("does not follow a symlink swapped in for the lock", async () => {
      const path = join(dir, "tokens.json");
      const target = join(dir, "victim");
      await writeFile(target, "keep my times");
      await age(target, 3_600_000);
      const before = await mtimeOf(target);
      await fileStore(path, { staleLockMs: 3_000 }).lock?.(async () => {
        await rm(`${path}.lock`);
        await symlink(target, `${path}.lock`);
        await vi.advanceTimersByTimeAsync(3_000); // three heartbeats, all finished when the lock is released
      });
      expect(await mtimeOf(target)).toBe(before);
    });

    it("does not touch a lock that another holder took over", async () => {
      const path = join(dir, "tokens.json");
      let aged = Number.NaN;
      await fileStore(path, { staleLockMs: 3_000 }).lock?.(async () => {
        await rm(`${path}.lock`);
        await writeFile(`${path}.lock`, "the-next-holder");
        await age(`${path}.lock`, 60_000);
        aged = await mtimeOf(`${path}.lock`);
        await vi.advanceTimersByTimeAsync(3_000);
      });
      // Still as old as it was: our heartbeat did not keep another process's lock alive.
      expect(await mtimeOf(`${path}.lock`)).toBe(aged);
      expect(await readFile(`${path}.lock`, "utf8")).toBe("the-next-holder");
    });
  });

  it("the holder removes only a lock that still holds its token", async () => {
    const path = join(dir, "tokens.json");
    await fileStore(path).lock?.(async () => {
      // Taken over while we were frozen: the lock is someone else's now.
      await writeFile(`${path}.lock`, "another-holder");
    });
    expect(await readFile(`${path}.lock`, "utf8")).toBe("another-holder");
  });
});

describe("fileStore faults and options", () => {
  it("clear() on a directory is store_failed; a NUL in the path is refused up front", async () => {
    await expect(fileStore(dir).clear()).rejects.toMatchObject({ code: "store_failed" });
    expect(() => fileStore(`${dir}/a\0b`)).toThrow(expect.objectContaining({ code: "invalid_options" }));
  });

  it.each<[string, unknown, RegExp]>([
    ["null options", null, /needs an options object/],
    ["staleLockMs -1", { staleLockMs: -1 }, /staleLockMs must be an integer from 1000/],
    ["staleLockMs NaN", { staleLockMs: Number.NaN }, /staleLockMs/],
    ["lockTimeoutMs NaN", { lockTimeoutMs: Number.NaN }, /lockTimeoutMs must be an integer/],
    ["lockTimeoutMs Infinity", { lockTimeoutMs: Number.POSITIVE_INFINITY }, /lockTimeoutMs/],
    ["lock 'yes'", { lock: "yes" }, /lock must be true or false/],
    [
      "staleLockMS",
      { staleLockMS: 5_000 },
      /fileStore\(\) has no option "staleLockMS": did you mean staleLockMs\?/,
    ],
  ])("%s is invalid_options", (_, options, message) => {
    expect(() => fileStore(join(dir, "t.json"), options as never)).toThrow(
      expect.objectContaining({ code: "invalid_options", message: expect.stringMatching(message) }),
    );
  });

  it("a write never replaces a stored set with a higher sequence", async () => {
    const path = join(dir, "tokens.json");
    const store = fileStore(path);
    const newer = toTokenSet({ accessToken: "newer", refreshToken: "r2" }, 1, null, undefined, {
      sequence: 5,
    });
    const older = toTokenSet({ accessToken: "older", refreshToken: "r1" }, 1, null, undefined, {
      sequence: 4,
    });
    await store.set(newer);
    await store.set(older);
    expect((await store.get())?.accessToken).toBe("newer");
    const next = toTokenSet({ accessToken: "next", refreshToken: "r3" }, 1, null, undefined, { sequence: 6 });
    await store.set(next);
    expect((await store.get())?.accessToken).toBe("next");
  });

  it("a write never replaces another set of the same sequence, but the same set may be written again", async () => {
    const path = join(dir, "tokens.json");
    const store = fileStore(path);
    const set = (accessToken: string, sequence: number) =>
      toTokenSet({ accessToken, refreshToken: `${accessToken}-refresh` }, 1, null, undefined, { sequence });
    // Two holders renewed from the same set (one frozen past staleLockMs): the first one stored wins.
    await store.set(set("winner", 3));
    await store.set(set("late-twin", 3));
    expect((await store.get())?.accessToken).toBe("winner");
    await store.set(set("winner", 3));
    expect((await store.get())?.sequence).toBe(3);
  });

  it("a set stored before sequences counts as 0 and is replaced by any renewal", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(path, JSON.stringify({ accessToken: "legacy", expiresAt: 2, obtainedAt: 1 }));
    const store = fileStore(path);
    expect((await store.get())?.sequence).toBe(0);
    await store.set(toTokenSet({ accessToken: "first" }, 1, null, undefined, { sequence: 1 }));
    expect((await store.get())?.accessToken).toBe("first");
  });
});
