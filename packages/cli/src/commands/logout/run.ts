import type { Context } from "../../context.js";
import { json } from "../shared.js";

export async function logout(ctx: Context): Promise<void> {
  const store = ctx.store(ctx.tokenPath);
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
