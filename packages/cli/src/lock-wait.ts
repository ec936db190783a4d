// A lock file left by a process killed during a renewal (Ctrl-C) is awaited until it is stale: many
// seconds that would otherwise pass on a blank screen. The wait, and only the wait, says so.
import type { LockHold } from "@engage-voice/auth";
import type { TokenStore } from "@engage-voice/auth/node";
import { SPINNER_DELAY_MS } from "./terminal.js";

export interface WaitSignal {
  /** Starts a wait; returns the function that ends it (the spinner's `begin`). */
  begin(label: string): () => void;
}

/** What the spinner says while `what`'s lock file is awaited. */
export const lockWaitLabel = (what: string) =>
  `Waiting for the lock on ${what} (held by another engage-voice, or left by one that was stopped)…`;

/**
 * The same store, whose `lock` shows the spinner (and a `--debug` line) from the call until the lock
 * is held: the task itself runs with the spinner off, so that a renewal's own waits show their labels.
 */
export function announceLockWaits(
  store: TokenStore,
  what: string,
  signal: WaitSignal,
  debug?: (line: string) => void,
): TokenStore {
  const lock = store.lock?.bind(store);
  if (!lock) {
    return store;
  }
  const wrapped: TokenStore = {
    // Its peek goes with it: a wrapper that dropped it would take the lock on every renewal, even
    // when another process has just stored a fresh set. So do the rules of its lock, which a manager
    // needs of a store with a lock.
    ...(store.peek ? { peek: store.peek.bind(store) } : {}),
    ...(store.lockingRules ? { lockingRules: store.lockingRules } : {}),
    get: () => store.get(),
    set: (tokens) => store.set(tokens),
    clear: () => store.clear(),
    lock<T>(task: (hold?: LockHold) => Promise<T>): Promise<T> {
      let end = signal.begin(lockWaitLabel(what));
      const started = performance.now();
      const held = () => {
        end();
        end = () => {};
      };
      return lock((hold?: LockHold) => {
        const waited = Math.round(performance.now() - started);
        // As long as the spinner would have waited to show: with --debug there is no spinner.
        if (waited >= SPINNER_DELAY_MS) {
          debug?.(`waited ${waited} ms for the lock on ${what}`);
        }
        held();
        return task(hold);
      }).finally(held);
    },
  };
  return wrapped;
}
