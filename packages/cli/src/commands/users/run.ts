import type { Context } from "../../command.js";
import { session } from "../../context.js";
import { roleNames } from "../../roles.js";
import { table } from "../../terminal.js";
import { answerError, print } from "../shared.js";
import type { usersOptions } from "./options.js";
import { treeOrder } from "./tree.js";

interface UserRow {
  userId?: unknown;
  userName?: unknown;
  fullName?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  enabled?: unknown;
  roles?: unknown;
  children?: unknown;
}

export async function users(ctx: Context<typeof usersOptions>): Promise<void> {
  const flatten = ctx.values.flatten === true;
  const activeOnly = ctx.values["active-only"] === true;
  const auth = await session(ctx);
  const { data, error, response } = await auth.client().GET("/voice/api/v1/admin/users", {
    params: { query: { ...(flatten ? { flatten: true } : {}), ...(activeOnly ? { activeOnly: true } : {}) } },
  });
  if (!response.ok || !Array.isArray(data)) {
    throw await answerError(ctx, response, error);
  }
  print(ctx, data, () => {
    const style = ctx.io.stdout.isTTY === true ? "lines" : "indent";
    const rows = treeOrder(data as UserRow[], style).map(([user, prefix]) => {
      const name = user.fullName ?? `${user.firstName ?? ""} ${user.lastName ?? ""}`.trim();
      return [user.userId, user.userName, `${prefix}${name}`, user.enabled, roleNames(user.roles)];
    });
    return table(["USER ID", "USER NAME", "NAME", "ENABLED", "ROLES"], rows);
  });
}
