import { UnexpectedResponseError } from "@engage-voice/auth";
import { isPermanentApiToken } from "@engage-voice/client";
import { print } from "../../shared.js";
import { apiTokensOf, type LegacyContext } from "../client.js";

export async function create(ctx: LegacyContext): Promise<void> {
  const created = await (await apiTokensOf(ctx)).create();
  // Printed bare, and meant for $(…): anything but a token's shape is not written at all.
  if (!isPermanentApiToken(created)) {
    throw new UnexpectedResponseError(
      "unexpected_response",
      "Creating an API token answered something that is not an API token",
      { status: 200 },
    );
  }
  // Like `token`: the bare value unless --json, so that $(engage-voice api-tokens create) works.
  print(ctx, { apiToken: created }, () => `${created}\n`, ctx.values.json === true);
}
