import { table } from "../../../terminal.js";
import { json } from "../../shared.js";
import { apiTokensOf, type LegacyContext } from "../client.js";

export async function list(ctx: LegacyContext): Promise<void> {
  const list = await (await apiTokensOf(ctx)).list();
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
