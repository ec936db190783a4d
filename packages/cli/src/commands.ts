// The commands. Each writes its result on stdout (a table, or JSON) and throws for a failure;
// run.ts turns the failure into one line on stderr and an exit code.

import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  apiTokens,
  createTokenManager,
  fromStored,
  legacyLogin,
  type Session,
  type TokenSet,
  UnexpectedResponseError,
} from "@engage-voice/auth";
import { fileStore } from "@engage-voice/auth/node";
import { retryAfterMs } from "@engage-voice/client";
import { isPermanentToken, maskToken } from "./api-token.js";
import {
  DEFAULT_BASE_URL,
  DEFAULT_LEGACY_BASE_URL,
  isProfileName,
  tokenFile,
  updateConfig,
} from "./config.js";
import { type Context, managerOptions, session } from "./context.js";
import { CliError, EXIT, usageError } from "./exit.js";
import { ApiAnswerError, safeErrorCode } from "./explain.js";
import { roleNames } from "./roles.js";
import { confirm, jsonText, printable, promptHidden, readStdin, table } from "./terminal.js";
import { ENV } from "./usage.js";

const json = jsonText;
/** What every call of a command shares: its deadline (--timeout) and where its retries are logged. */
const timeout = (ctx: Context) => ({
  logger: ctx.logger,
  ...(ctx.timeoutMs === undefined ? {} : { timeoutMs: ctx.timeoutMs }),
});
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function answerError(response: Response, error: unknown): ApiAnswerError {
  const body = typeof error === "object" && error !== null ? (error as { errorCode?: unknown }) : {};
  return new ApiAnswerError(
    response.status,
    safeErrorCode(body.errorCode),
    retryAfterMs(response, Date.now()),
  );
}

function userOf(session: Session | undefined) {
  const agent = session?.agentDetails[0];
  if (!agent) {
    return undefined;
  }
  return {
    firstName: agent.firstName,
    lastName: agent.lastName,
    username: agent.username ?? agent.email,
    agentId: agent.agentId,
    accountId: agent.accountId,
    accountName: agent.accountName,
  };
}

// ---- login, token, logout, profiles ----

/**
 * A new session replaces the old one, also when another process is renewing the old one right now:
 * it is written under the token file's lock, which a renewal holds from its read of the file to its
 * write, and with a sequence above the stored set's, which every renewal reads before its token call
 * and which the file store's write will not go below.
 */
async function storeNewSession(ctx: Context, tokens: TokenSet): Promise<void> {
  const store = fileStore(ctx.tokenPath);
  const write = async () => {
    const stored = await store.get().catch(() => undefined);
    const sequence = Math.max(tokens.sequence, (stored?.sequence ?? 0) + 1);
    await store.set(fromStored({ ...tokens, sequence }) as TokenSet);
  };
  ctx.logger.debug?.("storing the new session under the token file's lock");
  await (store.lock ? store.lock(write) : write());
}

async function login(ctx: Context): Promise<void> {
  const { io, values } = ctx;
  ctx.at.fromProfile = false;
  let parentToken: string;
  if (values["rc-token-stdin"]) {
    parentToken = await readStdin(io.stdin, "The RingCentral access token");
  } else if (io.env[ENV.parentToken]) {
    parentToken = io.env[ENV.parentToken] as string;
  } else if (io.stdin.isTTY) {
    parentToken = await promptHidden("RingCentral access token: ", io.stdin, io.stderr);
  } else {
    throw usageError(
      `login needs a RingCentral access token: pipe it with --rc-token-stdin or set ${ENV.parentToken}`,
    );
  }
  let tokens: TokenSet | undefined;
  const auth = createTokenManager({
    ...managerOptions(ctx),
    rcAccessToken: parentToken,
    onTokens: (set) => {
      tokens = set;
    },
  });
  await auth.getAccessToken();
  if (!tokens) {
    throw new CliError("The exchange gave no token set", EXIT.failure);
  }
  await storeNewSession(ctx, tokens);
  await updateConfig(ctx.dir, (config) => {
    config.profiles[ctx.profile] = { baseUrl: ctx.baseUrl, legacyBaseUrl: ctx.legacyBaseUrl };
  });

  const current = auth.session();
  const user = userOf(current);
  if (ctx.json) {
    ctx.out(
      json({
        profile: ctx.profile,
        baseUrl: ctx.baseUrl,
        legacyBaseUrl: ctx.legacyBaseUrl,
        user,
        accountIds: current?.accountIds ?? [],
        accessTokenExpiresAt: iso(current?.expiresAt),
      }),
    );
    return;
  }
  // Every name and ID below came from the API: printable() before it reaches a terminal.
  const who = user
    ? ` as ${printable(user.firstName)} ${printable(user.lastName)} (${printable(user.username ?? user.agentId)})`
    : "";
  ctx.out(`Logged in to ${ctx.baseUrl}${who.replace(/\s+/g, " ")}, profile ${ctx.profile}.\n`);
  const accounts = current?.agentDetails.map(
    (a) => `${printable(a.accountId)}${a.accountName ? ` (${printable(a.accountName)})` : ""}`,
  );
  if (accounts?.length) {
    ctx.out(`Accounts: ${accounts.join(", ")}\n`);
  }
  ctx.out(`Access token valid until ${iso(current?.expiresAt)}, renewed as needed (engage-voice token).\n`);
}

async function token(ctx: Context): Promise<void> {
  const auth = await session(ctx);
  const accessToken = await auth.getAccessToken();
  // Only --json changes this output: $(engage-voice token) must get the bare token.
  if (ctx.values.json) {
    ctx.out(json({ accessToken, expiresAt: iso(auth.session()?.expiresAt) }));
  } else {
    ctx.out(`${accessToken}\n`);
  }
}

async function logout(ctx: Context): Promise<void> {
  const store = fileStore(ctx.tokenPath);
  const had = (await store.get().catch(() => undefined)) !== undefined;
  await store.clear();
  if (ctx.json) {
    ctx.out(json({ profile: ctx.profile, baseUrl: ctx.baseUrl, loggedOut: had }));
  } else if (had) {
    ctx.out(`Logged out of ${ctx.baseUrl}, profile ${ctx.profile}.\n`);
  } else {
    ctx.out(`Not logged in to ${ctx.baseUrl} with profile ${ctx.profile}: nothing to forget.\n`);
  }
}

async function profiles(ctx: Context): Promise<void> {
  const names = new Set(Object.keys(ctx.config.profiles));
  const folders = await readdir(join(ctx.dir, "tokens"), { withFileTypes: true }).catch(() => []);
  for (const entry of folders) {
    if (entry.isDirectory() && isProfileName(entry.name)) {
      names.add(entry.name);
    }
  }
  const rows = [];
  for (const name of [...names].sort()) {
    const hosts = ctx.config.profiles[name] ?? {
      baseUrl: DEFAULT_BASE_URL,
      legacyBaseUrl: DEFAULT_LEGACY_BASE_URL,
    };
    const stored = await fileStore(tokenFile(ctx.dir, name, hosts.baseUrl))
      .get()
      .catch(() => undefined);
    const session = stored as (TokenSet & Partial<Session>) | undefined;
    rows.push({
      profile: name,
      current: name === ctx.profile,
      baseUrl: hosts.baseUrl,
      legacyBaseUrl: hosts.legacyBaseUrl,
      loggedIn: stored !== undefined,
      user: userOf(session?.agentDetails ? (session as Session) : undefined)?.username,
      accountIds: session?.agentDetails?.map((a) => a.accountId) ?? [],
      accessTokenExpiresAt: iso(stored?.expiresAt),
      renewable: Boolean(stored?.refreshToken),
    });
  }
  if (ctx.json) {
    return ctx.out(json(rows));
  }
  if (rows.length === 0) {
    return ctx.out("No profiles yet: run engage-voice login\n");
  }
  ctx.out(
    table(
      ["", "PROFILE", "HOST", "USER", "ACCOUNTS", "SESSION"],
      rows.map((r) => [
        r.current ? "*" : "",
        r.profile,
        r.baseUrl,
        r.user ?? "",
        r.accountIds.join(","),
        !r.loggedIn
          ? "logged out"
          : `token until ${r.accessTokenExpiresAt}${r.renewable ? ", renewable" : ", not renewable"}`,
      ]),
    ),
  );
}

// ---- accounts, users ----

async function accounts(ctx: Context): Promise<void> {
  const auth = await session(ctx);
  const { data, error, response } = await auth.client().GET("/voice/api/v1/admin/accounts");
  if (!response.ok || !Array.isArray(data)) {
    throw answerError(response, error);
  }
  if (ctx.json) {
    return ctx.out(json(data));
  }
  ctx.out(
    table(
      ["ACCOUNT ID", "NAME", "MAIN ACCOUNT", "RC ACCESS", "ARCHIVED"],
      data.map((a) => [a.accountId, a.accountName, a.mainAccountId, a.rcAccountAccess, a.archivedAccount]),
    ),
  );
}

interface UserRow {
  userId?: unknown;
  userName?: unknown;
  fullName?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  enabled?: unknown;
  roles?: unknown;
  children?: unknown;
}

async function users(ctx: Context): Promise<void> {
  const flatten = ctx.values.flatten === true;
  const activeOnly = ctx.values["active-only"] === true;
  const auth = await session(ctx);
  const { data, error, response } = await auth.client().GET("/voice/api/v1/admin/users", {
    params: { query: { ...(flatten ? { flatten: true } : {}), ...(activeOnly ? { activeOnly: true } : {}) } },
  });
  if (!response.ok || !Array.isArray(data)) {
    throw answerError(response, error);
  }
  if (ctx.json) {
    return ctx.out(json(data));
  }
  const rows: unknown[][] = [];
  const walk = (list: readonly UserRow[], depth: number) => {
    for (const user of list) {
      const roles = roleNames(user.roles);
      const name = user.fullName ?? `${user.firstName ?? ""} ${user.lastName ?? ""}`.trim();
      rows.push([user.userId, user.userName, `${"  ".repeat(depth)}${name}`, user.enabled, roles]);
      if (Array.isArray(user.children)) {
        walk(user.children as UserRow[], depth + 1);
      }
    }
  };
  walk(data as UserRow[], 0);
  ctx.out(table(["USER ID", "USER NAME", "NAME", "ENABLED", "ROLES"], rows));
}

// ---- api-tokens ----

/** A bearer access token for the deprecated host: a direct login, or the profile's session. */
async function legacyBearer(ctx: Context): Promise<string> {
  const { io, values } = ctx;
  const username = values.username as string | undefined;
  if (username === undefined) {
    if (values["platform-id"] !== undefined || values["password-stdin"]) {
      throw usageError("--platform-id and --password-stdin go with --username (a direct login)");
    }
    const auth = await session(ctx);
    const accessToken = await auth.getAccessToken();
    ctx.at.host = ctx.legacyBaseUrl;
    return accessToken;
  }
  const platformId = values["platform-id"] as string | undefined;
  if (!username || !platformId) {
    throw usageError("A direct login needs --username and --platform-id");
  }
  let password: string;
  if (values["password-stdin"]) {
    password = await readStdin(io.stdin, "The password");
  } else if (io.stdin.isTTY) {
    password = await promptHidden("Password: ", io.stdin, io.stderr);
  } else {
    throw usageError(
      "The password is needed: pipe it with --password-stdin, or run on a terminal to be asked",
    );
  }
  ctx.at.host = ctx.legacyBaseUrl;
  ctx.at.fromProfile = false;
  const tokens = await legacyLogin({
    baseUrl: ctx.legacyBaseUrl,
    username,
    password,
    platformId,
    fetch: ctx.fetch,
    ...timeout(ctx),
  });
  return tokens.accessToken;
}

/** The API token to delete: from stdin with --token-stdin (out of the process list), else the argument. */
async function tokenToDelete(ctx: Context): Promise<string> {
  const { values, positionals } = ctx;
  if (!values["token-stdin"]) {
    if (positionals[0] === undefined) {
      throw usageError(
        "api-tokens delete needs the API token: pipe it with --token-stdin, or give it after --",
      );
    }
    return positionals[0];
  }
  if (positionals.length > 0) {
    throw usageError("api-tokens delete takes the API token from --token-stdin or as an argument, not both");
  }
  if (values.username !== undefined || values["password-stdin"]) {
    throw usageError(
      "--token-stdin takes stdin, which a direct login needs for the password: run engage-voice login first, then delete with the profile's session",
    );
  }
  return (await readStdin(ctx.io.stdin, "The API token")).trim();
}

async function apiTokensCommand(ctx: Context): Promise<void> {
  const action = ctx.spec.name.split(" ")[1];
  if (action === "delete") {
    const target = await tokenToDelete(ctx);
    if (!isPermanentToken(target)) {
      throw usageError("The API token to delete must look like <prefix>:<id>, as api-tokens list shows");
    }
    if (ctx.values.yes !== true) {
      const { stdin, stderr } = ctx.io;
      if (!stdin.isTTY || !stderr.isTTY) {
        throw usageError(
          "api-tokens delete asks for confirmation on a terminal: pass --yes to delete without",
        );
      }
      const question = `Delete the permanent API token ${maskToken(target)} on ${ctx.legacyBaseUrl}?`;
      if (!(await confirm(question, stdin, stderr))) {
        throw new CliError("Cancelled: nothing was deleted", EXIT.usage);
      }
    }
    const tokens = apiTokens({
      baseUrl: ctx.legacyBaseUrl,
      auth: { accessToken: await legacyBearer(ctx) },
      fetch: ctx.fetch,
      ...timeout(ctx),
    });
    await tokens.delete(target);
    if (ctx.json) {
      ctx.out(json({ deleted: maskToken(target) }));
    } else {
      ctx.out(`Deleted the permanent API token ${maskToken(target)}.\n`);
    }
    return;
  }
  const tokens = apiTokens({
    baseUrl: ctx.legacyBaseUrl,
    auth: { accessToken: await legacyBearer(ctx) },
    fetch: ctx.fetch,
    ...timeout(ctx),
  });
  if (action === "create") {
    const created = await tokens.create();
    // Printed bare, and meant for $(…): anything but a token's shape is not written at all.
    if (!isPermanentToken(created)) {
      throw new UnexpectedResponseError(
        "unexpected_response",
        "Creating an API token answered something that is not an API token",
        { status: 200 },
      );
    }
    // Like `token`: the bare value unless --json, so that $(engage-voice api-tokens create) works.
    if (ctx.values.json) {
      ctx.out(json({ apiToken: created }));
    } else {
      ctx.out(`${created}\n`);
    }
    return;
  }
  const list = await tokens.list();
  if (ctx.json) {
    return ctx.out(json(list));
  }
  if (list.length === 0) {
    return ctx.out("No permanent API tokens.\n");
  }
  ctx.out(
    table(
      ["API TOKEN"],
      list.map((t) => [t]),
    ),
  );
}

export const commands: Record<string, (ctx: Context) => Promise<void>> = {
  login,
  token,
  logout,
  profiles,
  accounts,
  users,
  "api-tokens create": apiTokensCommand,
  "api-tokens list": apiTokensCommand,
  "api-tokens delete": apiTokensCommand,
};
