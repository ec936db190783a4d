// The README's TypeScript sample 2, below the marker exactly as the README has it, with what it
// takes from the text around it above: readme-samples.test.ts holds the two equal, and the package's
// tsc checks it as a user's strict project would (exactOptionalPropertyTypes included).
// biome-ignore-all format: the sample is the README's text, byte for byte
// biome-ignore-all lint/correctness/noUnusedVariables: a sample stops where the reader's code goes on
// biome-ignore-all lint/correctness/noUnusedImports: a sample's import may serve the README's next ones
// biome-ignore-all lint/style/useBlockStatements: the README's one-line guards, as written
import { createLegacyClient, isApiError } from "@engage-voice/client";

declare const username: string, password: string, platformId: string;

// README sample:
const legacy = createLegacyClient(); // https://portal.vacd.biz
const { data: login, error } = await legacy.POST("/api/auth/login/admin", {
  params: { query: { username, password, platformId } },
});
if (error) throw new Error(isApiError(error) ? error.generalMessage : String(error));
const { data: apiToken } = await legacy.POST("/voice/api/v1/admin/token", {
  headers: { Authorization: `Bearer ${login.accessToken}` },
}); // a string, parsed from text/plain
