import { isPermanentApiToken } from "@engage-voice/client";
import { maskToken } from "../../../api-token.js";
import type { Context } from "../../../command.js";
import { CliError, EXIT, usageError } from "../../../exit.js";
import { confirm, readStdin } from "../../../terminal.js";
import { print } from "../../shared.js";
import { apiTokensOf } from "../client.js";
import type { deleteOptions } from "./options.js";

type DeleteContext = Context<typeof deleteOptions>;

/** The API token to delete: from stdin with --token-stdin (out of the process list), else the argument. */
async function tokenToDelete(ctx: DeleteContext): Promise<string> {
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
  return (await ctx.deadline.paused(readStdin(ctx.io.stdin, "The API token"))).trim();
}

export async function remove(ctx: DeleteContext): Promise<void> {
  const target = await tokenToDelete(ctx);
  if (!isPermanentApiToken(target)) {
    throw usageError("The API token to delete must look like <prefix>:<id>, as api-tokens list shows");
  }
  if (ctx.values.yes !== true) {
    const { stdin, stderr } = ctx.io;
    if (!stdin.isTTY || !stderr.isTTY) {
      throw usageError("api-tokens delete asks for confirmation on a terminal: pass --yes to delete without");
    }
    const question = `Delete the permanent API token ${maskToken(target)} on ${ctx.legacyBaseUrl}?`;
    if (!(await ctx.deadline.paused(confirm(question, stdin, stderr)))) {
      throw new CliError("Cancelled: nothing was deleted", EXIT.usage);
    }
  }
  await (await apiTokensOf(ctx)).delete(target);
  print(ctx, { deleted: maskToken(target) }, () => `Deleted the permanent API token ${maskToken(target)}.\n`);
}
