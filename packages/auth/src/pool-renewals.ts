// What a tenant pool adds to its managers' renewals, out of a lone manager's way: the budget of
// exchanges its tenants share, and the line that bounds how many renewals run at once, where a
// renewal also waits for a slot of that budget.
import { describe, VERBOSE } from "./errors.js";
import { BudgetSpent, type ExchangeBudget, type ExchangeSlots } from "./exchange-limiter.js";
import type { RenewalQueue } from "./renewal.js";
import type { RenewalSlots } from "./renewal-slots.js";
import type { Logger } from "./types.js";

/** The slots of a budget the pool's tenants share: `BudgetSpent` when it is spent. */
export function sharedSlots(budget: ExchangeBudget, logger: Logger): ExchangeSlots {
  return {
    async take() {
      const wait = await budget.take();
      if (wait > 0) {
        throw new BudgetSpent(
          wait,
          VERBOSE ? "The exchange budget the pool's tenants share is spent" : "budget",
        );
      }
    },
    blockFor(retryAfterMs) {
      Promise.resolve()
        .then(() => budget.blockFor(retryAfterMs))
        .catch((error: unknown) => {
          logger.error?.(`The exchange budget could not be told of a 429: ${describe(error)}`);
        });
    },
  };
}

/**
 * A pool's renewals: each attempt waits for one of the pool's `slots`, held for the attempt only,
 * not for a wait for the exchange budget (a tenant that only needs a refresh never queues behind
 * exchanges waiting for theirs). A spent shared budget lets go of the slot and of the store's lock,
 * waits for the next slot of the budget here and tries again (the store is read again: another
 * process may have renewed meanwhile); a wait past `maxWaitMs` (the manager's deadline) is the
 * callers' error at once, with the time of the next slot.
 */
export function renewalQueue(
  slots: RenewalSlots,
  maxWaitMs: number,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): RenewalQueue {
  return async (attempt, signal, emit) => {
    for (;;) {
      try {
        return await slots(attempt, signal);
      } catch (error) {
        if (!(error instanceof BudgetSpent) || error.retryAfterMs > maxWaitMs) {
          if (error instanceof BudgetSpent) {
            emit({ type: "failed", code: error.code });
          }
          throw error;
        }
        await sleep(error.retryAfterMs, signal);
      }
    }
  };
}
