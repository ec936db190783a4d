// What the test asks of every generated client: every operation of the document, by operationId, each answering the
// status and body that the generated code itself parsed. An adapter maps these onto one generator's
// output; it is the code a user of that generator writes, and it is type-checked against it.

/** Base URLs of the two hosts, as a user points a generated client at a sandbox or a mock. */
export interface Hosts {
  main: string;
  legacy: string;
}

export interface Answer<T> {
  status: number;
  /** The body as the generated client parsed it, on a success; undefined otherwise. */
  data: T | undefined;
}

export interface LegacyCredentials {
  username: string;
  password: string;
  platformId: string;
}

export interface Calls {
  /** With `includeRefresh=true`. */
  exchangeAccessToken(rcAccessToken: string): Promise<Answer<{ accessToken: string; refreshToken?: string }>>;
  refreshAccessToken(refreshToken: string): Promise<Answer<{ accessToken: string; refreshToken: string }>>;
  listAccounts(accessToken: string): Promise<Answer<unknown[]>>;
  /** With `flatten=true`. */
  listUsers(accessToken: string): Promise<Answer<unknown[]>>;
  legacyLogin(credentials: LegacyCredentials): Promise<Answer<{ accessToken: string }>>;
  createApiToken(accessToken: string): Promise<Answer<string>>;
  /** Authenticated by the permanent token itself, in `X-Auth-Token`. */
  listApiTokens(apiToken: string): Promise<Answer<string[]>>;
  /** Authenticated by the access token, as a bearer. */
  deleteApiToken(accessToken: string, apiToken: string): Promise<Answer<unknown>>;
}

/** What each adapter module exports as `generated`. */
export interface GeneratedClient {
  /** The base URLs the generated code uses when it is given none: the document's first server. */
  defaultHosts(): Hosts;
  /** Every operation, on the given base URLs. */
  calls(hosts: Hosts): Calls;
}

/** The body type of the members of a `{ status, data }` union whose status is one of `S`. */
type DataOf<R, S> = R extends { status: S; data: infer D } ? D : R extends { status: S } ? undefined : never;

/**
 * An answer from a client that returns `{ status, data }` unions (orval, oazapfts): the data of the
 * given success statuses, typed by the generated union, so that the type-check holds the generated
 * types to what `Calls` expects.
 */
export function fromStatusUnion<R extends { status: number }, S extends R["status"]>(
  result: R,
  success: readonly S[],
): Answer<DataOf<R, S>> {
  const ok = (success as readonly number[]).includes(result.status);
  return { status: result.status, data: ok ? (result as R & { data?: DataOf<R, S> }).data : undefined };
}
