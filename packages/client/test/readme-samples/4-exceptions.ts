// The README's TypeScript sample 4, below the marker exactly as the README has it, with what it
// takes from the text around it above: readme-samples.test.ts holds the two equal, and the package's
// tsc checks it as a user's strict project would (exactOptionalPropertyTypes included).
// biome-ignore-all format: the sample is the README's text, byte for byte
// biome-ignore-all lint/correctness/noUnusedVariables: a sample stops where the reader's code goes on
// biome-ignore-all lint/correctness/noUnusedImports: a sample's import may serve the README's next ones
// biome-ignore-all lint/style/useBlockStatements: the README's one-line guards, as written
declare const accessToken: string;

// README sample:
import { createClient, NotFoundError, orThrow } from "@engage-voice/client";

const client = createClient({ headers: { Authorization: `Bearer ${accessToken}` } });
try {
  const users = await orThrow(client.GET("/voice/api/v1/admin/users")); // User[]
  console.log(users.length);
} catch (error) {
  if (error instanceof NotFoundError) {
    console.log(`no such account: ${error.errorCode}`);
  } else {
    throw error;
  }
}
