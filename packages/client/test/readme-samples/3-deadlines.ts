// The README's TypeScript sample 3, below the marker exactly as the README has it, with what it
// takes from the text around it above: readme-samples.test.ts holds the two equal, and the package's
// tsc checks it as a user's strict project would (exactOptionalPropertyTypes included).
// biome-ignore-all format: the sample is the README's text, byte for byte
// biome-ignore-all lint/correctness/noUnusedVariables: a sample stops where the reader's code goes on
// biome-ignore-all lint/correctness/noUnusedImports: a sample's import may serve the README's next ones
// biome-ignore-all lint/style/useBlockStatements: the README's one-line guards, as written
import { createClient } from "@engage-voice/client";

declare const accessToken: string;

// README sample:
const client = createClient({ timeoutMs: 30_000, maxRetries: 2 }); // the defaults (callDefaults)

const controller = new AbortController();
const { data, error } = await client.GET("/voice/api/v1/admin/users", {
  headers: { Authorization: `Bearer ${accessToken}` },
  timeoutMs: 5_000,          // this call's deadline
  maxRetries: 0,             // no retry for this one
  signal: controller.signal, // ends the call at once, wherever it is
});
