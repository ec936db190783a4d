// The one renewal a session runs at a time, shared by every caller that needs one, and what its
// callers need of it: to join it, to give it up once every caller that started it has, and to know
// whether it ended after close() had resolved (then nothing is sent with what it brought).

import type { CyclerEvent } from "./renewal.js";
import type { Need } from "./renewal-policy.js";
import type { TokenSet } from "./tokens.js";
import type { Clock } from "./types.js";

/** A renewal under way, with what its callers need to give it up. */
interface Running {
  promise: Promise<TokenSet>;
  /** Aborted once every caller that waited for it has given up: it then sends and waits no more. */
  controller: AbortController;
  waiters: number;
  /**
   * Whether a waiting caller started it. One started in the refresh window, or by `refresh()`, runs
   * to its end even when a caller that joined it gives up: its answer may carry a rotated token.
   */
  abandonable: boolean;
  /** It ended after close() had resolved: its callers send nothing with what it brought. */
  late: boolean;
}

export interface SharedRenewalDeps {
  /** One renewal for `need`; `signal` aborts once it is given up. */
  run: (need: Need, signal: AbortSignal) => Promise<TokenSet>;
  clock: Clock;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  emit: (event: CyclerEvent) => void;
  /** Throws `closed` when no renewal may start (close() was called). */
  refuseIfClosed: () => void;
  /** Whether close() has resolved. */
  closed: () => boolean;
  closedError: () => Error;
}

export function sharedRenewal(deps: SharedRenewalDeps) {
  const { clock, emit } = deps;
  let running: Running | undefined;
  // Every renewal not yet ended, one logout() discarded too: close() waits for each (its lock).
  const inFlight = new Set<Promise<unknown>>();

  /** The renewal under way, or a new one for `need`. */
  function start(need: Need): Running {
    deps.refuseIfClosed();
    if (running) {
      return running;
    }
    const controller = new AbortController();
    const started: Running = {
      promise: deps.run(need, controller.signal).finally(() => {
        if (running === started) {
          running = undefined;
        }
      }),
      controller,
      waiters: 0,
      abandonable: false,
      late: false,
    };
    running = started;
    // The first reaction to its end, so that close() cannot resolve in between.
    const done = () => {
      started.late = deps.closed();
      inFlight.delete(ended);
    };
    const ended: Promise<unknown> = started.promise.then(done, done);
    inFlight.add(ended);
    return started;
  }

  /**
   * The renewal for `need`, awaited until `signal` aborts. Once every caller that waited for a
   * renewal has given up, it is given up too: no further token call or wait of it holds the process
   * or spends the exchange's limit for nobody. A renewal a caller did not start (in the refresh
   * window, or `refresh()`) runs to its end.
   */
  async function waitFor(need: Need, signal: AbortSignal | null | undefined): Promise<TokenSet> {
    signal?.throwIfAborted();
    const first = running === undefined;
    const renewal = start(need);
    renewal.abandonable ||= first && signal !== undefined && signal !== null;
    const since = clock.now();
    renewal.waiters++;
    const settled = renewal.promise
      .finally(() => emit({ type: "waited", ms: clock.now() - since }))
      .then(
        (tokens) => {
          if (renewal.late) {
            throw deps.closedError();
          }
          return tokens;
        },
        (error: unknown) => {
          throw renewal.late ? deps.closedError() : error;
        },
      );
    if (!signal) {
      return settled;
    }
    return new Promise<TokenSet>((resolve, reject) => {
      const leave = () => {
        reject(signal.reason);
        if (--renewal.waiters === 0 && renewal.abandonable) {
          renewal.controller.abort(signal.reason);
        }
      };
      signal.addEventListener("abort", leave, { once: true });
      settled.then(resolve, reject).finally(() => signal.removeEventListener("abort", leave));
    });
  }

  return {
    /** The renewal for `need`, joined or started, not tied to any caller's signal. */
    acquire(need: Need): Promise<TokenSet> {
      try {
        return start(need).promise;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    waitFor,
    running: () => running !== undefined,
    /** The signal of the renewal under way: its token calls end when it aborts. */
    signal: () => running?.controller.signal,
    /** Gives up the renewal under way (logout, close past its time); `forget` lets the next one start. */
    abort(reason: unknown, forget = false): void {
      running?.controller.abort(reason);
      if (forget) {
        running = undefined;
      }
    },
    /** Waits for every renewal in flight, at most `timeoutMs`; whether they all ended. */
    async drain(timeoutMs: number): Promise<boolean> {
      if (inFlight.size === 0) {
        return true;
      }
      // A wait the caller awaits: its timer holds the process, and goes once the renewals have ended.
      const timer = new AbortController();
      const late = deps.sleep(timeoutMs, timer.signal).then(
        () => false,
        () => false,
      );
      const drained = await Promise.race([Promise.all(inFlight).then(() => true), late]);
      timer.abort();
      return drained;
    },
  };
}
