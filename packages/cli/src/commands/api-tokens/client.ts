// The deprecated host's permanent-token calls, with the profile's session or a direct login.
import { apiTokens, legacyLogin } from "@engage-voice/auth";
import type { Context } from "../../command.js";
import { session } from "../../context.js";
import { usageError } from "../../exit.js";
import { promptHidden, readStdin } from "../../terminal.js";
import { callOptions } from "../shared.js";
import type { legacyAuth } from "./options.js";

export type LegacyContext = Context<typeof legacyAuth>;

/** A bearer access token for the deprecated host: a direct login, or the profile's session. */
async function legacyBearer(ctx: LegacyContext): Promise<string> {
  const { io, values } = ctx;
  const username = values.username;
  if (username === undefined) {
    if (values["platform-id"] !== undefined || values["password-stdin"]) {
      throw usageError("--platform-id and --password-stdin go with --username (a direct login)");
    }
    const auth = await session(ctx);
    const accessToken = await auth.getAccessToken();
    ctx.at.host = ctx.legacyBaseUrl;
    return accessToken;
  }
  const platformId = values["platform-id"];
  if (!username || !platformId) {
    throw usageError("A direct login needs --username and --platform-id");
  }
  let password: string;
  if (values["password-stdin"]) {
    password = await ctx.deadline.paused(readStdin(io.stdin, "The password"));
  } else if (io.stdin.isTTY) {
    password = await ctx.deadline.paused(promptHidden("Password: ", io.stdin, io.stderr));
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
    ...callOptions(ctx),
  });
  return tokens.accessToken;
}

export async function apiTokensOf(ctx: LegacyContext) {
  return apiTokens({
    baseUrl: ctx.legacyBaseUrl,
    auth: { accessToken: await legacyBearer(ctx) },
    fetch: ctx.fetch,
    ...callOptions(ctx),
  });
}
