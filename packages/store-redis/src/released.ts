import type { BoundedRedis } from "./bounded.js";

/**
 * A second connection for SUBSCRIBE, shaped like node-redis v5's (`client.duplicate()` or
 * `cluster.duplicate()`, connected): a connection that subscribes can send no other command.
 */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  /**
   * Stops `listener` listening on `channel` (node-redis's `unsubscribe(channel, listener)`): two stores
   * of one tenant on one subscriber each remove their own listener only. Without it a closed store's
   * listener stays.
   */
  unsubscribe?(channel: string, listener?: () => unknown): Promise<unknown>;
}

/**
 * What a waiter for the lock hears of its releases: each release of the tenant's lock is published on
 * the tenant's channel (inside the release script, so only a lock really deleted is announced). A
 * waiter then tries at once instead of sleeping out its backoff, and may sleep longer between tries
 * than without a subscriber, since the message wakes it.
 */
export interface ReleaseSignal {
  /** Subscribes on first use; false when it could not (the waiter then polls as without one). */
  listening(): Promise<boolean>;
  /** How many releases were heard so far. */
  heard(): number;
  /** Stops listening: a pool that lets a tenant go must not leave its listener on a shared connection. */
  close(): Promise<void>;
  /**
   * Resolves after `ms`, or at once when a release is heard after `since` (a count from `heard()`
   * taken before the try that found the lock taken: a release between that try and this pause counts).
   */
  pause(ms: number, since: number): Promise<void>;
}

export function releaseSignal(
  subscriber: RedisSubscriber,
  channel: string,
  within: BoundedRedis["within"],
): ReleaseSignal {
  let heard = 0;
  const wake = new Set<() => void>();
  let subscribed: Promise<boolean> | undefined;
  const listener = () => {
    heard++;
    for (const resolve of wake) {
      resolve();
    }
    wake.clear();
  };
  return {
    async close() {
      const was = subscribed;
      subscribed = undefined;
      if (was && (await was) && subscriber.unsubscribe) {
        await within(() =>
          (subscriber.unsubscribe as NonNullable<RedisSubscriber["unsubscribe"]>)(channel, listener),
        ).catch(() => {});
      }
    },
    listening() {
      subscribed ??= within(() => subscriber.subscribe(channel, listener)).then(
        () => true,
        () => {
          // The next renewal tries again; this one waits as a store without a subscriber does.
          subscribed = undefined;
          return false;
        },
      );
      return subscribed;
    },
    heard: () => heard,
    pause(ms, since) {
      if (heard !== since) {
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          wake.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake.add(done);
      });
    },
  };
}
