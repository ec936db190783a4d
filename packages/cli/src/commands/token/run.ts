import type { Context } from "../../command.js";
import { session } from "../../context.js";
import { iso, print } from "../shared.js";

export async function token(ctx: Context): Promise<void> {
  const auth = await session(ctx);
  const accessToken = await auth.getAccessToken();
  // Only --json changes this output: $(engage-voice token) must get the bare token.
  print(
    ctx,
    { accessToken, expiresAt: iso(auth.session()?.expiresAt) },
    () => `${accessToken}\n`,
    ctx.values.json === true,
  );
}
