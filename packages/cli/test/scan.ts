import type { RunningSandbox } from "@engage-voice/sandbox";
import { expect } from "vitest";
import { API_TOKEN, JWT, transcript } from "./helpers.js";

/**
 * Every byte every process wrote: no seeded parent token or password anywhere, no access token,
 * refresh token or API token on stderr. `extra` adds secrets seen during the run (refresh tokens).
 */
export function expectNoSecrets(
  sandbox: Pick<RunningSandbox, "seed"> | undefined,
  extra: string[] = [],
): void {
  const secrets = [
    ...(sandbox?.seed.parentTokens.map((p) => p.token) ?? []),
    ...(sandbox?.seed.legacyLogins.map((l) => l.password) ?? []),
    ...extra,
  ].filter((s) => s.length >= 6);
  expect(transcript.length).toBeGreaterThan(0);
  for (const { args, stdout, stderr } of transcript) {
    for (const secret of secrets) {
      expect(stdout.includes(secret), `stdout of ${args.join(" ")}`).toBe(false);
      expect(stderr.includes(secret), `stderr of ${args.join(" ")}`).toBe(false);
    }
    expect(stderr, `stderr of ${args.join(" ")}`).not.toMatch(JWT);
    expect(stderr, `stderr of ${args.join(" ")}`).not.toMatch(API_TOKEN);
  }
}
