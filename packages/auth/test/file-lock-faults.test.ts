// The file lock when the file system refuses: a stale lock that cannot be removed, a lock whose token
// cannot be written, and a takeover that another process is in the middle of or crashed inside.
import type * as fs from "node:fs/promises";
import { lstat, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { takeoverPath } from "../src/file-lock.js";
import { fileStore } from "../src/node.js";

const faults = vi.hoisted(() => ({
  rename: undefined as string | undefined,
  write: undefined as string | undefined,
  /** A new lock, as created by another process between the stale check and the move aside. */
  swapIn: undefined as string | undefined,
  /** The heartbeat's open of its lock (by flags, not "wx"). */
  touch: undefined as string | undefined,
  /** Removing what a takeover leaves: its takeover file and the stale lock moved aside. */
  cleanup: undefined as string | undefined,
}));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const refuse = (code: string) => Object.assign(new Error(`${code}: refused at /secret/path`), { code });
  return {
    ...real,
    rename: async (from: string, to: string) => {
      if (faults.rename && String(from).endsWith(".lock")) {
        throw refuse(faults.rename);
      }
      if (faults.swapIn && String(from).endsWith(".lock")) {
        await real.unlink(from);
        await real.writeFile(from, faults.swapIn);
        faults.swapIn = undefined;
      }
      return real.rename(from, to);
    },
    unlink: async (path: string) => {
      if (faults.cleanup && String(path).endsWith(".takeover")) {
        throw refuse(faults.cleanup);
      }
      return real.unlink(path);
    },
    rm: async (path: string, options?: Parameters<typeof real.rm>[1]) => {
      if (faults.cleanup && String(path).endsWith(".stale")) {
        throw refuse(faults.cleanup);
      }
      return real.rm(path, options);
    },
    open: async (...args: Parameters<typeof real.open>) => {
      if (faults.touch && typeof args[1] === "number" && String(args[0]).endsWith(".lock")) {
        throw refuse(faults.touch);
      }
      const handle = await real.open(...args);
      if (faults.write && args[1] === "wx" && String(args[0]).endsWith(".lock")) {
        handle.writeFile = async () => {
          throw refuse(faults.write as string);
        };
      }
      return handle;
    },
  };
});

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ev-lock-faults-"));
});
afterEach(async () => {
  faults.rename = undefined;
  faults.write = undefined;
  faults.swapIn = undefined;
  faults.touch = undefined;
  faults.cleanup = undefined;
  await rm(dir, { recursive: true, force: true });
});

const age = async (path: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  await utimes(path, then, then);
};
const identityOf = async (path: string) => {
  const stats = await lstat(path, { bigint: true });
  return `${stats.dev}:${stats.ino}:${stats.mtimeNs}`;
};

describe("the lock file when the file system refuses", () => {
  it("waits for a stale lock it cannot remove until lockTimeoutMs, then fails with the reason", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(`${path}.lock`, "another-users-holder");
    await age(`${path}.lock`, 60_000);
    faults.rename = "EPERM";
    const error = await fileStore(path, { lockTimeoutMs: 300 })
      .lock?.(async () => "held")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "store_failed", message: expect.stringMatching(/300 ms/) });
    // The reason, by its system code only: the path stays out of errors.
    const reason = (error as Error).cause as Error;
    expect(reason).toMatchObject({ code: "store_failed", message: expect.stringMatching(/stale lock/) });
    expect((reason.cause as Error).message).toBe("Error (EPERM)");
    expect((await readdir(dir)).sort()).toEqual(["tokens.json.lock"]); // no takeover file left
  }, 60_000);

  it("keeps a crashed takeover's file while the stale lock it was for cannot be removed", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(`${path}.lock`, "another-users-holder");
    await age(`${path}.lock`, 60_000);
    const leftover = await takeoverPath(`${path}.lock`, await identityOf(`${path}.lock`), 1);
    await writeFile(leftover, "takeover");
    await age(leftover, 60_000);
    faults.rename = "EPERM";
    await expect(
      fileStore(path, { staleLockMs: 1_000, lockTimeoutMs: 300 }).lock?.(async () => "held"),
    ).rejects.toMatchObject({ code: "store_failed" });
    // Removed, it would be a generation free for one process while another holds the next.
    expect((await readdir(dir)).sort()).toEqual([leftover.slice(dir.length + 1), "tokens.json.lock"].sort());
    faults.rename = undefined;
    expect(await fileStore(path, { staleLockMs: 1_000 }).lock?.(async () => "held")).toBe("held");
    expect(await readdir(dir)).toEqual([]);
  }, 60_000);

  it("removes a lock whose token it could not write, and fails with store_failed", async () => {
    const path = join(dir, "tokens.json");
    faults.write = "ENOSPC";
    const error = await fileStore(path)
      .lock?.(async () => "held")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "store_failed" });
    expect(((error as Error).cause as Error).message).toBe("Error (ENOSPC)");
    expect(await readdir(dir)).toEqual([]); // no empty lock left to block everyone for staleLockMs
    faults.write = undefined;
    expect(await fileStore(path).lock?.(async () => "held")).toBe("held");
  });

  it("puts back a lock that replaced the stale one between the check and the move aside", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(`${path}.lock`, "crashed-holder");
    await age(`${path}.lock`, 60_000);
    faults.swapIn = "a-live-holder";
    const error = await fileStore(path, { lockTimeoutMs: 200 })
      .lock?.(async () => "held")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "store_failed" });
    expect(await readFile(`${path}.lock`, "utf8")).toBe("a-live-holder");
    expect(await readdir(dir)).toEqual(["tokens.json.lock"]);
  });

  it("takes over a stale lock even when what the takeover leaves cannot be removed", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(`${path}.lock`, "crashed-holder");
    await age(`${path}.lock`, 60_000);
    faults.cleanup = "EPERM";
    expect(await fileStore(path, { lockTimeoutMs: 2_000 }).lock?.(async () => "held")).toBe("held");
    faults.cleanup = undefined;
    // Only leftovers of the stale lock, which nothing reads: the lock itself was released.
    const left = await readdir(dir);
    expect(left.every((name) => name.endsWith(".takeover") || name.endsWith(".stale"))).toBe(true);
    expect(left.length).toBeGreaterThan(0);
    expect(await fileStore(path, { lockTimeoutMs: 0 }).lock?.(async () => "again")).toBe("again");
  });

  it("fails with store_failed at once when the lock cannot be created or its folder made", async () => {
    const long = join(dir, `${"t".repeat(300)}.json`);
    await expect(fileStore(long).lock?.(async () => "held")).rejects.toMatchObject({ code: "store_failed" });
    await writeFile(join(dir, "file"), "");
    const under = join(dir, "file", "tokens.json");
    await expect(fileStore(under).lock?.(async () => "held")).rejects.toMatchObject({ code: "store_failed" });
  });
});

describe("the heartbeat when the file system refuses", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const mtimeOf = async (path: string) => (await lstat(path)).mtimeMs;

  it("a touch refused once is forgiven: the next beat touches the lock, and the task's outcome stands", async () => {
    const path = join(dir, "tokens.json");
    const held = await fileStore(path, { staleLockMs: 3_000 }).lock?.(async () => {
      await age(`${path}.lock`, 60_000);
      const aged = await mtimeOf(`${path}.lock`);
      faults.touch = "EMFILE";
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await mtimeOf(`${path}.lock`)).toBe(aged);
      faults.touch = undefined;
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitFor(async () => expect(await mtimeOf(`${path}.lock`)).toBeGreaterThan(aged), {
        timeout: 60_000,
      });
      return "held";
    });
    expect(held).toBe("held");
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("a takeover by another process", () => {
  it("under way is waited for like a held lock, within lockTimeoutMs", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(`${path}.lock`, "crashed-holder");
    await age(`${path}.lock`, 60_000);
    await writeFile(await takeoverPath(`${path}.lock`, await identityOf(`${path}.lock`), 1), "takeover");
    const error = await fileStore(path, { staleLockMs: 3_600_000, lockTimeoutMs: 300 })
      .lock?.(async () => "held")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "store_failed", message: expect.stringMatching(/300 ms/) });
  }, 60_000);

  it("left by a crash is passed over once stale, one holder at a time, and nothing is left", async () => {
    for (let trial = 0; trial < 5; trial++) {
      const path = join(dir, `tokens-${trial}.json`);
      await writeFile(`${path}.lock`, "crashed-holder");
      await age(`${path}.lock`, 60_000);
      const identity = await identityOf(`${path}.lock`);
      for (const n of [1, 2]) {
        await writeFile(await takeoverPath(`${path}.lock`, identity, n), "takeover");
        await age(await takeoverPath(`${path}.lock`, identity, n), 60_000);
      }
      let inside = 0;
      let most = 0;
      // The default staleLockMs (15 s): only the 60 s old lock and takeovers are stale, never a live
      // holder that a busy machine slowed down.
      await Promise.all(
        Array.from({ length: 8 }, () =>
          fileStore(path).lock?.(async () => {
            inside++;
            most = Math.max(most, inside);
            await new Promise((resolve) => setImmediate(resolve));
            inside--;
          }),
        ),
      );
      expect(most).toBe(1);
    }
    expect(await readdir(dir)).toEqual([]);
    // Real files and eight managers per trial: the verdict is the count, the bound only the run's.
  }, 60_000);
});
