import type { Context } from "../../command.js";
import { print } from "../shared.js";

export async function logout(ctx: Context): Promise<void> {
  const store = ctx.store(ctx.tokenPath);
  const had = (await store.get().catch(() => undefined)) !== undefined;
  await store.clear();
  print(ctx, { profile: ctx.profile, baseUrl: ctx.baseUrl, loggedOut: had }, () =>
    had
      ? `Logged out of ${ctx.baseUrl}, profile ${ctx.profile}.\n`
      : `Not logged in to ${ctx.baseUrl} with profile ${ctx.profile}: nothing to forget.\n`,
  );
}
