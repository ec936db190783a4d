// The wait for a store's lock is announced from the call until the lock is held, never longer.
import { memoryStore, type TokenStore } from "@engage-voice/auth";
import { describe, expect, it } from "vitest";
import { announceLockWaits, lockWaitLabel } from "../src/lock-wait.js";

/** A store whose lock is taken when the test says so, and a signal that records what it shows. */
function setUp() {
  const events: string[] = [];
  let grant: () => void = () => {};
  const granted = new Promise<void>((resolve) => {
    grant = resolve;
  });
  const base: TokenStore = {
    ...memoryStore(),
    async lock(task) {
      await granted;
      events.push("held");
      return task({ aborted: false });
    },
  };
  const signal = {
    begin(label: string) {
      events.push(`begin ${label}`);
      return () => events.push("end");
    },
  };
  const debugLines: string[] = [];
  return { events, grant, store: announceLockWaits(base, "the session", signal, (l) => debugLines.push(l)) };
}

describe("announceLockWaits", () => {
  it("shows the wait while the lock is awaited and ends it before the task runs", async () => {
    const { events, grant, store } = setUp();
    const done = store.lock?.(async (hold) => {
      events.push(`task ${hold?.aborted}`);
      return 42;
    });
    expect(events).toEqual([`begin ${lockWaitLabel("the session")}`]);
    grant();
    await expect(done).resolves.toBe(42);
    expect(events).toEqual([`begin ${lockWaitLabel("the session")}`, "held", "end", "task false"]);
  });

  it("ends the wait when the lock fails, once", async () => {
    const events: string[] = [];
    const store = announceLockWaits(
      {
        ...memoryStore(),
        lock: () => Promise.reject(new Error("stayed locked")),
      },
      "config.json",
      { begin: () => () => events.push("end") },
    );
    await expect(store.lock?.(async () => 1)).rejects.toThrow("stayed locked");
    expect(events).toEqual(["end"]);
  });

  it("keeps the store's peek, so a set another process renewed is still taken without the lock", async () => {
    const base = memoryStore();
    const peeked: string[] = [];
    const store = announceLockWaits(
      {
        ...base,
        lock: (task) => task(),
        peek: () => {
          peeked.push("peek");
          return base.get();
        },
      },
      "the session",
      { begin: () => () => {} },
    );
    await store.peek?.();
    expect(peeked).toEqual(["peek"]);
  });

  it("keeps the rules of the store's lock, without which a manager refuses the store", () => {
    const lockingRules: NonNullable<TokenStore["lockingRules"]> = () => {
      throw new Error("not called here");
    };
    const store = announceLockWaits(
      { ...memoryStore(), lock: (task) => task(), lockingRules },
      "the session",
      {
        begin: () => () => {},
      },
    );
    expect(store.lockingRules).toBe(lockingRules);
  });

  it("leaves a store without a lock as it is", () => {
    const plain = memoryStore();
    expect(announceLockWaits(plain, "the session", { begin: () => () => {} })).toBe(plain);
  });
});
