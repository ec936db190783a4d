// The README's TypeScript sample 1, below the marker exactly as the README has it, with what it
// takes from the text around it above: readme-samples.test.ts holds the two equal, and the package's
// tsc checks it as a user's strict project would (exactOptionalPropertyTypes included).
// biome-ignore-all format: the sample is the README's text, byte for byte
// biome-ignore-all lint/correctness/noUnusedVariables: a sample stops where the reader's code goes on
// biome-ignore-all lint/correctness/noUnusedImports: a sample's import may serve the README's next ones
// biome-ignore-all lint/style/useBlockStatements: the README's one-line guards, as written
declare const parentPlatformToken: string;

// README sample:
import { createClient, createLegacyClient, isApiError } from "@engage-voice/client";

const client = createClient(); // https://engage.ringcentral.com (or { baseUrl: "https://ringcx.ringcentral.com" })

// Form operations are form-encoded for you: pass a plain object.
const { data: tokens, error } = await client.POST("/api/auth/login/rc/accesstoken", {
  params: { query: { includeRefresh: true } },
  body: { rcAccessToken: parentPlatformToken, rcTokenType: "Bearer" },
});
if (error) throw new Error(isApiError(error) ? error.generalMessage : String(error));

const { data: accounts } = await client.GET("/voice/api/v1/admin/accounts", {
  headers: { Authorization: `Bearer ${tokens.accessToken}` },
});
// accounts: Account[]; a 401 answers the string error "Jwt is expired".
