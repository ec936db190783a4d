import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileStore } from "../src/node.js";
import { toTokenSet } from "../src/tokens.js";
import { hostsFor, PARENT_USER } from "./fake-server.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ev-auth-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sample = (n: number) =>
  toTokenSet(
    { accessToken: `access-${n}`, refreshToken: `refresh-${n}`, agentDetails: [{ accountId: "1" }] },
    n,
    null,
  );

/** Managers on one token file and one fake server: each `make()` is another process's manager. */
const managersOn = (path: string, lock = true) => {
  const { clock, server, managerOn } = hostsFor();
  const make = () => managerOn(fileStore(path, { lock }), { sleep: undefined, random: undefined }).auth;
  return { clock, server, make, managerOn };
};

describe("fileStore", () => {
  it("writes with mode 0600 through a temporary file and a rename", async () => {
    const path = join(dir, "nested", "tokens.json");
    const store = fileStore(path);
    expect(await store.get()).toBeUndefined();
    await store.set(sample(1));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, "nested"))).toEqual(["tokens.json"]);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({
      accessToken: "access-1",
      refreshToken: "refresh-1",
    });
    const read = await store.get();
    expect(read?.refreshToken).toBe("refresh-1");
    expect(JSON.stringify(read)).not.toContain("refresh-1"); // read back as a redacting token set
  });

  it("never shows a half-written file to a reader", async () => {
    const path = join(dir, "tokens.json");
    const store = fileStore(path);
    const reads: Array<Promise<unknown>> = [];
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < 40; i++) {
      writes.push(store.set(sample(i)));
      reads.push(store.get());
    }
    await Promise.all(writes);
    for (const read of await Promise.all(reads)) {
      if (read !== undefined) {
        expect((read as { accessToken: string }).accessToken).toMatch(/^access-\d+$/);
      }
    }
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("lets a new manager on the same file resume the session without a new exchange", async () => {
    const { clock, server, make } = managersOn(join(dir, "tokens.json"));
    const first = await make().getAccessToken();
    const resumed = make();
    expect(await resumed.getAccessToken()).toBe(first);
    expect(server.calls.exchange).toBe(1);
    expect(resumed.session()?.accountIds).toEqual([PARENT_USER.accountId]);
    clock.advance(301_000);
    await make().getAccessToken(); // a third process refreshes with the stored refresh token
    expect(server.calls.refresh).toBe(1);
    expect(server.calls.exchange).toBe(1);
  });

  it("reports an unreadable file, and the manager starts over and repairs it", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(path, "{ not json");
    await expect(fileStore(path).get()).rejects.toMatchObject({ code: "store_failed" });
    const { managerOn } = hostsFor();
    const { auth, logs: lines } = managerOn(fileStore(path), { sleep: undefined, random: undefined });
    await auth.getAccessToken();
    expect(lines.some((l) => l.startsWith("error The token store could not be read"))).toBe(true);
    expect(JSON.parse(await readFile(path, "utf8")).accessToken).toMatch(/^ey/);
  });

  it("ignores a file that is JSON but not a token set", async () => {
    const path = join(dir, "tokens.json");
    await writeFile(path, JSON.stringify({ accessToken: 1 }));
    expect(await fileStore(path).get()).toBeUndefined();
  });

  it("fails with a typed error when the folder cannot be read or written", async () => {
    const blocker = join(dir, "file");
    await writeFile(blocker, "");
    const store = fileStore(join(blocker, "tokens.json"));
    await expect(store.set(sample(1))).rejects.toMatchObject({ code: "store_failed" });
    await expect(store.get()).rejects.toMatchObject({ code: "store_failed" });
    await expect(fileStore(dir).set(sample(1))).rejects.toMatchObject({ code: "store_failed" });
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("clears the file, also when there is none", async () => {
    const path = join(dir, "tokens.json");
    const store = fileStore(path);
    await store.set(sample(1));
    await store.clear();
    await store.clear();
    expect(await readdir(dir)).toEqual([]);
  });

  it("needs a path", () => {
    expect(() => fileStore("")).toThrow(/path/);
  });
});

describe("fileStore shared by several managers", () => {
  it("renew one at a time under the lock: one refresh, the others read its tokens", async () => {
    const { clock, server, make } = managersOn(join(dir, "tokens.json"), true);
    await make().getAccessToken();
    clock.advance(301_000);
    const managers = Array.from({ length: 4 }, make);
    const tokens = await Promise.all(managers.map((m) => m.getAccessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(server.calls.refresh).toBe(1);
    expect(server.calls.exchange).toBe(1);
    expect(await readdir(dir)).toEqual(["tokens.json"]); // the lock file is gone
  });

  it("without the lock, racing managers spend the same refresh token (why the lock is the default)", async () => {
    const { clock, server, make } = managersOn(join(dir, "tokens.json"), false);
    await make().getAccessToken();
    clock.advance(301_000);
    await Promise.all(Array.from({ length: 2 }, make).map((m) => m.getAccessToken()));
    expect(server.calls.refresh).toBe(2);
    expect(server.calls.exchange).toBe(2); // the loser's refresh token was spent: it exchanged again
  });

  it("takes over a lock left by a crashed process", async () => {
    const path = join(dir, "tokens.json");
    const { server, make } = managersOn(path, true);
    await writeFile(`${path}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, old, old);
    await make().getAccessToken();
    expect(server.calls.exchange).toBe(1);
  });

  it("fails with store_failed when the lock stays taken", async () => {
    const path = join(dir, "tokens.json");
    const { server, managerOn } = managersOn(path, true);
    await writeFile(`${path}.lock`, "");
    // The lock wait runs on real time: the manager's clock is the real one too.
    const { auth } = managerOn(fileStore(path, { lockTimeoutMs: 100 }), {
      clock: undefined,
      sleep: undefined,
      random: undefined,
    });
    await expect(auth.getAccessToken()).rejects.toMatchObject({ code: "store_failed" });
    expect(server.calls.exchange).toBe(0);
  });
});
