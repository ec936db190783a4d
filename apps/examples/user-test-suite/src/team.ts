// Our product shows each customer the agents of their contact center. This module is the one place
// that talks to Engage Voice: a token manager per customer, a client it authorises, and the mapping
// from the API's users to our own `TeamMember`.
import { createTokenManager, type TokenManager, type TokenManagerOptions } from "@engage-voice/auth";
import {
  createClient,
  type EngageVoiceClient,
  type EngageVoiceClientOptions,
  isApiError,
  type User,
} from "@engage-voice/client";

/** A person of the customer's team, as our product stores it. */
export interface TeamMember {
  id: number;
  name: string;
  email: string | undefined;
  roles: string[];
}

/** The API said no to listing the team: the customer must act (grant a role, reconnect). */
export class TeamAccessError extends Error {
  override readonly name = "TeamAccessError";
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`Engage Voice refused to list the team (${status}): ${detail}`);
  }
}

export interface TeamConnectionOptions
  extends Pick<TokenManagerOptions, "baseUrl" | "rcAccessToken" | "clock" | "logger"> {
  /** Test hooks and per-customer settings of the API calls (deadline, retries, their waits). */
  calls?: Pick<EngageVoiceClientOptions, "timeoutMs" | "maxRetries" | "sleep" | "random" | "headers">;
}

export interface TeamConnection {
  auth: TokenManager;
  client: EngageVoiceClient;
  listTeam(): Promise<TeamMember[]>;
}

/** One customer's connection: the manager exchanges and renews, the client carries its middleware. */
export function connectTeam({ calls, ...manager }: TeamConnectionOptions): TeamConnection {
  const auth = createTokenManager(manager);
  const client = createClient({
    ...calls,
    ...(manager.baseUrl ? { baseUrl: manager.baseUrl } : {}),
    ...(manager.logger ? { logger: manager.logger } : {}),
  });
  client.use(auth.middleware);
  return { auth, client, listTeam: () => listTeam(client) };
}

/** The active users, flat: asked for flat, and flattened again should a tree come back anyway. */
export async function listTeam(client: EngageVoiceClient): Promise<TeamMember[]> {
  const { data, error, response } = await client.GET("/voice/api/v1/admin/users", {
    params: { query: { flatten: true, activeOnly: true } },
  });
  if (data === undefined) {
    throw new TeamAccessError(response.status, isApiError(error) ? error.generalMessage : String(error));
  }
  return flatten(data)
    .filter((user) => user.enabled !== false)
    .map(toMember);
}

function flatten(users: User[]): User[] {
  return users.flatMap((user) => [user, ...flatten(user.children ?? [])]);
}

function toMember(user: User): TeamMember {
  return {
    id: user.userId ?? 0,
    name: user.fullName ?? [user.firstName, user.lastName].filter(Boolean).join(" "),
    email: user.userName?.includes("@") ? user.userName : undefined,
    // The document allows both forms of a role; the sandbox seeds objects, other sources show text.
    roles: (user.roles ?? []).map((role) => (typeof role === "string" ? role : (role.roleType ?? ""))),
  };
}
