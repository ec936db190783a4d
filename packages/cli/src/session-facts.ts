// What a stored session says about itself, without a secret: read one way, from the token set that
// the file store gives back (or that a login just got), by `login` and `profiles` alike.
import type { TokenSet } from "@engage-voice/auth";

export interface SessionUser {
  firstName: string | undefined;
  lastName: string | undefined;
  username: string | undefined;
  agentId: number | undefined;
  accountId: string | undefined;
  accountName: string | undefined;
}

export interface SessionFacts {
  /** The first agent of the session, which is the user who logged in. */
  user: SessionUser | undefined;
  /** `accountId` and `accountName` of each agent: what the session may address. */
  accounts: { accountId: string; accountName: string | undefined }[];
  expiresAt: number;
  renewable: boolean;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** A stored file may hold anything: only objects count as agents, only string IDs as accounts. */
export function sessionFacts(tokens: TokenSet): SessionFacts {
  const agents = (Array.isArray(tokens.agentDetails) ? (tokens.agentDetails as unknown[]) : []).filter(
    (agent): agent is Record<string, unknown> => typeof agent === "object" && agent !== null,
  );
  const first = agents[0];
  return {
    user: first && {
      firstName: text(first.firstName),
      lastName: text(first.lastName),
      username: text(first.username) ?? text(first.email),
      agentId: typeof first.agentId === "number" ? first.agentId : undefined,
      accountId: text(first.accountId),
      accountName: text(first.accountName),
    },
    accounts: agents.flatMap((agent) => {
      const accountId = text(agent.accountId);
      return accountId === undefined ? [] : [{ accountId, accountName: text(agent.accountName) }];
    }),
    expiresAt: tokens.expiresAt,
    renewable: Boolean(tokens.refreshToken),
  };
}
