import { table } from "../../../terminal.js";
import { print } from "../../shared.js";
import { apiTokensOf, type LegacyContext } from "../client.js";

export async function list(ctx: LegacyContext): Promise<void> {
  const list = await (await apiTokensOf(ctx)).list();
  print(ctx, list, () =>
    list.length === 0
      ? "No permanent API tokens.\n"
      : table(
          ["API TOKEN"],
          list.map((t) => [t]),
        ),
  );
}
