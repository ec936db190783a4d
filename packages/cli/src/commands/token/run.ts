import { type Context, session } from "../../context.js";
import { iso, json } from "../shared.js";

export async function token(ctx: Context): Promise<void> {
  const auth = await session(ctx);
  const accessToken = await auth.getAccessToken();
  // Only --json changes this output: $(engage-voice token) must get the bare token.
  if (ctx.values.json) {
    ctx.out(json({ accessToken, expiresAt: iso(auth.session()?.expiresAt) }));
  } else {
    ctx.out(`${accessToken}\n`);
  }
}
