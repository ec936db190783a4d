import { createTokenManager, fromStored, type TokenSet } from "@engage-voice/auth";
import type { Context } from "../../command.js";
import { updateConfig } from "../../config.js";
import { managerOptions } from "../../context.js";
import { ENV } from "../../env.js";
import { CliError, EXIT, usageError } from "../../exit.js";
import { sessionFacts } from "../../session-facts.js";
import { printable, promptHidden, readStdin } from "../../terminal.js";
import { iso, print } from "../shared.js";
import type { loginOptions } from "./options.js";

/**
 * A new session replaces the old one, also when another process is renewing the old one right now:
 * it is written under the token file's lock, which a renewal holds from its read of the file to its
 * write, and with a sequence above the stored set's, which every renewal reads before its token call
 * and which the file store's write will not go below.
 */
async function storeNewSession(ctx: Context, tokens: TokenSet): Promise<void> {
  const store = ctx.store(ctx.tokenPath);
  const write = async () => {
    const stored = await store.get().catch(() => undefined);
    const sequence = Math.max(tokens.sequence, (stored?.sequence ?? 0) + 1);
    // The profile is the session's tenant: a token file copied to another profile is refused.
    await store.set(fromStored({ ...tokens, sequence, tenant: ctx.profile }) as TokenSet);
  };
  ctx.logger.debug?.("storing the new session under the token file's lock");
  await (store.lock ? store.lock(write) : write());
}

export async function login(ctx: Context<typeof loginOptions>): Promise<void> {
  const { io, values } = ctx;
  ctx.at.fromProfile = false;
  let parentToken: string;
  if (values["rc-token-stdin"]) {
    parentToken = await ctx.deadline.paused(readStdin(io.stdin, "The RingCentral access token"));
  } else if (io.env[ENV.parentToken]) {
    parentToken = io.env[ENV.parentToken] as string;
  } else if (io.stdin.isTTY) {
    parentToken = await ctx.deadline.paused(promptHidden("RingCentral access token: ", io.stdin, io.stderr));
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
  await updateConfig(
    ctx.dir,
    (config) => {
      config.profiles[ctx.profile] = { baseUrl: ctx.baseUrl, legacyBaseUrl: ctx.legacyBaseUrl };
    },
    ctx.store,
  );

  const { user, accounts, expiresAt } = sessionFacts(tokens);
  const facts = {
    profile: ctx.profile,
    baseUrl: ctx.baseUrl,
    legacyBaseUrl: ctx.legacyBaseUrl,
    user,
    accountIds: accounts.map((a) => a.accountId),
    accessTokenExpiresAt: iso(expiresAt),
  };
  print(ctx, facts, () => {
    // Every name and ID below came from the API: printable() before it reaches a terminal.
    const who = user
      ? ` as ${printable(user.firstName)} ${printable(user.lastName)} (${printable(user.username ?? user.agentId)})`
      : "";
    const named = accounts.map(
      (a) => `${printable(a.accountId)}${a.accountName ? ` (${printable(a.accountName)})` : ""}`,
    );
    return [
      `Logged in to ${ctx.baseUrl}${who.replace(/\s+/g, " ")}, profile ${ctx.profile}.\n`,
      named.length ? `Accounts: ${named.join(", ")}\n` : "",
      `Access token valid until ${iso(expiresAt)}, renewed as needed (engage-voice token).\n`,
    ].join("");
  });
}
