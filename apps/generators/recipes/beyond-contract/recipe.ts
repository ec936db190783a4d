// The auth README's recipe "Operations beyond this contract", run by test/beyond-contract.test.ts.
// README sample:
// npx openapi-typescript campaigns.yaml -o campaigns-api.ts
import { createTokenManager } from "@engage-voice/auth";
import createClient from "openapi-fetch";
import type { paths } from "./campaigns-api.js";

const baseUrl = process.env.ENGAGE_VOICE_BASE_URL ?? "https://engage.ringcentral.com";
const auth = createTokenManager({ baseUrl, rcAccessToken: process.env.RC_ACCESS_TOKEN ?? "" });
await auth.getAccessToken();
const accountId = auth.session()?.accountIds[0] ?? "";

// auth.fetch gives these calls the manager's guards: the bearer, one renewal shared with every other
// call, a 401 "Jwt is expired" replayed once, the deadline and the retries of idempotent calls.
const campaigns = createClient<paths>({ baseUrl, fetch: auth.fetch });
const { data, error } = await campaigns.GET("/voice/api/v1/admin/accounts/{accountId}/campaigns", {
  params: { path: { accountId } },
});
if (error !== undefined || data === undefined) {
  throw new Error(`listCampaigns answered ${String(error)}`);
}
for (const campaign of data) {
  console.log(`${campaign.campaignId} ${campaign.campaignName}`);
}
