// What a session holds and whose it is: the token set, the main account it is bound to, and the
// generation that logout() starts anew. Every set that enters the session passes one of these checks.
import { EngageVoiceAuthError, VERBOSE } from "./errors.js";
import { answeredForAnother, storedForAnother, storedForAnotherAccount } from "./tenant.js";
import { boundTo, obtainedBy, type TokenSet, withoutRefreshToken } from "./tokens.js";
import type { Logger } from "./types.js";

export const loggedOut = () =>
  new EngageVoiceAuthError(
    "logged_out",
    VERBOSE ? "logout() was called during the renewal: its tokens were discarded" : "logout()",
  );

/**
 * The session of `tenant`, bound to `boundAccount` when the vendor gave one, else to the main account
 * of its own first answer.
 */
export function createSession(tenant: string, boundAccount: string | undefined, logger: Logger) {
  let held: TokenSet | undefined;
  let account = boundAccount;
  // Bumped by logout(): a renewal that started before it must not store or hand out its result.
  let generation = 0;
  const refuse = (error: EngageVoiceAuthError): never => {
    logger.error?.(error.message);
    throw error;
  };
  const isAnotherAccount = (named: unknown) =>
    account !== undefined && named !== undefined && named !== account;
  return {
    tenant,
    held: () => held,
    generation: () => generation,
    isCurrent: (gen: number) => gen === generation,
    /** Throws `logged_out` once logout() came after the renewal of generation `gen` started. */
    stillCurrent(gen: number): void {
      if (gen !== generation) {
        throw loggedOut();
      }
    },
    /** A stored set, refused loudly when another tenant's credentials, or another account's, obtained it. */
    checkStored(stored: TokenSet | undefined): TokenSet | undefined {
      if (stored && !obtainedBy(stored, tenant)) {
        refuse(storedForAnother(tenant, stored.tenant));
      }
      if (stored && isAnotherAccount(stored.mainAccountId)) {
        refuse(storedForAnotherAccount(tenant));
      }
      return stored;
    },
    /** A token call's answer as the tenant's set; refused when it is for another main account. */
    admit(answer: TokenSet): TokenSet {
      if (isAnotherAccount(answer.mainAccountId)) {
        refuse(answeredForAnother(tenant));
      }
      account ??= answer.mainAccountId;
      return boundTo(answer, tenant);
    },
    hold(tokens: TokenSet | undefined): void {
      held = tokens;
    },
    /** `current`'s refresh token is spent, or may be: it is never presented again. */
    spend(current: TokenSet): void {
      if (held === current) {
        held = withoutRefreshToken(current);
      }
    },
    /** logout(): a new generation that holds nothing, bound again as the vendor bound it. */
    forget(): void {
      generation++;
      held = undefined;
      account = boundAccount;
    },
  };
}

export type Session = ReturnType<typeof createSession>;
