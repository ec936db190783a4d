import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "../../command.js";
import { isProfileName, profileHosts, tokenFile } from "../../config.js";
import { sessionFacts } from "../../session-facts.js";
import { table } from "../../terminal.js";
import { iso, print } from "../shared.js";

interface ProfileRow {
  profile: string;
  current: boolean;
  baseUrl: string;
  legacyBaseUrl: string;
  loggedIn: boolean;
  user: string | undefined;
  accountIds: string[];
  accessTokenExpiresAt: string | undefined;
  renewable: boolean;
}

export async function profiles(ctx: Context): Promise<void> {
  const names = new Set(Object.keys(ctx.config.profiles));
  const folders = await readdir(join(ctx.dir, "tokens"), { withFileTypes: true }).catch(() => []);
  for (const entry of folders) {
    if (entry.isDirectory() && isProfileName(entry.name)) {
      names.add(entry.name);
    }
  }
  const rows: ProfileRow[] = [];
  for (const name of [...names].sort()) {
    const hosts = profileHosts(ctx.config, name);
    const stored = await ctx
      .store(tokenFile(ctx.dir, name, hosts.baseUrl))
      .get()
      .catch(() => undefined);
    const facts = stored && sessionFacts(stored);
    rows.push({
      profile: name,
      current: name === ctx.profile,
      baseUrl: hosts.baseUrl,
      legacyBaseUrl: hosts.legacyBaseUrl,
      loggedIn: facts !== undefined,
      user: facts?.user?.username,
      accountIds: facts?.accounts.map((a) => a.accountId) ?? [],
      accessTokenExpiresAt: iso(facts?.expiresAt),
      renewable: facts?.renewable ?? false,
    });
  }
  print(ctx, rows, () =>
    rows.length === 0
      ? "No profiles yet: run engage-voice login\n"
      : table(
          ["", "PROFILE", "HOST", "USER", "ACCOUNTS", "SESSION"],
          rows.map((r) => [
            r.current ? "*" : "",
            r.profile,
            r.baseUrl,
            r.user ?? "",
            r.accountIds.join(","),
            !r.loggedIn
              ? "logged out"
              : `token until ${r.accessTokenExpiresAt}${r.renewable ? ", renewable" : ", not renewable"}`,
          ]),
        ),
  );
}
