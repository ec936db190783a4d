// A nightly export of one account's sub-accounts and users, as NDJSON on stdout (one JSON object a
// line). The session is kept in a token file, so a run soon after another takes its token from
// there instead of exchanging the parent token again (the exchange allows 5 calls a minute).
import { createTokenManager } from "@engage-voice/auth";
import { fileStore } from "@engage-voice/auth/node";

const auth = createTokenManager({
  baseUrl: process.env.ENGAGE_VOICE_BASE_URL ?? "https://engage.ringcentral.com",
  rcAccessToken: process.env.RC_ACCESS_TOKEN ?? "",
  tenant: "nightly-export", // the name the session in the file is stamped with
  store: fileStore(process.env.TOKEN_FILE ?? ".tokens/engage-voice.json"), // mode 0600
});
const client = auth.client();

const accounts = await client.GET("/voice/api/v1/admin/accounts");
const users = await client.GET("/voice/api/v1/admin/users", { params: { query: { flatten: true } } });
if (accounts.error !== undefined || users.error !== undefined) {
  throw new Error(
    `The API answered ${accounts.response.status} for accounts, ${users.response.status} for users`,
  );
}

for (const account of accounts.data) {
  process.stdout.write(`${JSON.stringify({ kind: "account", ...account })}\n`);
}
for (const user of users.data) {
  process.stdout.write(`${JSON.stringify({ kind: "user", ...user })}\n`);
}
console.error(`exported ${accounts.data.length} accounts and ${users.data.length} users`);
// Nothing to close: an idle token manager holds no timer or connection, so the process ends here.
