import type { Context } from "../../command.js";
import { session } from "../../context.js";
import { table } from "../../terminal.js";
import { answerError, print } from "../shared.js";

export async function accounts(ctx: Context): Promise<void> {
  const auth = await session(ctx);
  const { data, error, response } = await auth.client().GET("/voice/api/v1/admin/accounts");
  if (!response.ok || !Array.isArray(data)) {
    throw await answerError(ctx, response, error);
  }
  print(ctx, data, () =>
    table(
      ["ACCOUNT ID", "NAME", "MAIN ACCOUNT", "RC ACCESS", "ARCHIVED"],
      data.map((a) => [a.accountId, a.accountName, a.mainAccountId, a.rcAccountAccess, a.archivedAccount]),
    ),
  );
}
