import type { LockingRules } from "./store-rules.js";
import type { TokenSet } from "./tokens.js";

/**
 * What a store's lock hands the task it runs, so that the task can check it still holds the lock
 * before a step that cannot be undone (the manager's token calls). Shaped like an `AbortSignal`: a lock
 * library's signal (Redlock's `using`) fits as it is.
 */
export interface LockHold {
  /** True once the lock is known to be lost: it expired, and another process may hold it now. */
  readonly aborted: boolean;
  /**
   * Asks the lock itself, now, whether the task still holds it (and keeps it alive if so). Without it,
   * `aborted` is all a task can check.
   */
  held?(): Promise<boolean>;
}

/**
 * Where a token manager keeps its token set between renewals, and across restarts with a
 * persistent store. The manager writes every new token set with `set` before it hands the new
 * access token to anyone, so a crash cannot lose the only valid refresh token; it reads the store
 * again before each renewal, so a store shared by several managers always yields the newest refresh
 * token.
 *
 * `set` gets a {@link TokenSet}, which prints itself redacted: persist a copy of its fields
 * (`JSON.stringify({ ...tokens })`). `get` may return those fields as a plain object; anything that
 * is not a token set counts as empty.
 *
 * `lock`, when present, runs each renewal exclusively: a store shared by several processes can put a
 * lock around it (a file lock, a database row lock) so that only one of them spends the refresh
 * token while the others wait and then read the new set. It may pass the task a {@link LockHold}: the
 * manager then checks it right before each token call, so a holder that stalled until its lock was
 * taken over does not spend a refresh token its successor may be spending. A store with `lock` carries
 * the rules a session follows under it as `lockingRules` (from `@engage-voice/auth/store-kit`); a
 * manager refuses one without them.
 */
export interface TokenStore {
  /**
   * The tenant whose set this store holds, when the store is made for one (`redisStore({ tenant })`):
   * a manager given the store takes it as its own tenant.
   */
  readonly tenant?: string;
  get(): Promise<TokenSet | undefined>;
  set(tokens: TokenSet): Promise<void>;
  clear(): Promise<void>;
  lock?<T>(task: (hold?: LockHold) => Promise<T>): Promise<T>;
  /**
   * Required with `lock`: `lockingRules` of `@engage-voice/auth/store-kit`, the rules a session
   * follows under the lock (the lock checked before each token call, the refresh marked in flight,
   * which stored set is newer). Carried by the store, so that an app whose stores never lock does
   * not ship them; a spread store (`{ ...redisStore(options), lock }`) keeps them.
   */
  readonly lockingRules?: LockingRules;
  /**
   * Reads the set without the lock, answering quickly or failing: a local file, or Redis under a
   * deadline shorter than the lock's. A manager whose set needs renewing looks here first and takes a
   * newer set that meets its need without taking the lock (another process renewed it meanwhile); a
   * failed or stale peek is ignored and the renewal goes on under the lock, where `get` reads again.
   * Without it, a store with a lock is read under the lock only.
   */
  peek?(): Promise<TokenSet | undefined>;
  /**
   * Lets go of what the store holds for its tenant (a subscription on a shared connection). A tenant
   * pool calls it when it lets go of the tenant's manager, since the pool made the store; a manager
   * never calls it: a store you give one stays yours.
   */
  close?(): Promise<void>;
}

/** The default store: the token set lives in this object only. */
export function memoryStore(): TokenStore {
  let saved: TokenSet | undefined;
  return {
    get: async () => saved,
    set: async (tokens) => {
      saved = tokens;
    },
    clear: async () => {
      saved = undefined;
    },
  };
}
