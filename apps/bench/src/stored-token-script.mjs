// The floor of `engage-voice token` with a valid stored session, for bench/cli.bench.ts: what anyone
// writes in ten lines to read the default profile's token file, check expiresAt and print the token.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.ENGAGE_VOICE_CONFIG_DIR;
const { baseUrl } = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).profiles.default;
const { protocol, hostname, port } = new URL(baseUrl);
const file = join(
  dir,
  "tokens",
  "default",
  `${protocol.slice(0, -1)}_${hostname}${port ? `_${port}` : ""}.json`,
);
const stored = JSON.parse(readFileSync(file, "utf8"));
if (!(Date.now() < stored.expiresAt)) {
  process.exit(1);
}
process.stdout.write(`${stored.accessToken}\n`);
