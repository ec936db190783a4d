// What `pnpm start` and the command line print about a running sandbox: its URLs, the seeded (fake)
// credentials, the limits in force, and examples that work against it as printed.

import type { RunningSandbox } from "./app.js";
import { CONTROL_PATH } from "./control.js";
import type { ExchangeRateLimitScope } from "./options.js";
import { FAULTS_PATH } from "./paths.js";
import {
  DEFAULT_LEGACY_LOGINS,
  DEFAULT_PARENT_TOKENS,
  findUser,
  hasRole,
  MAIN_ACCOUNT,
  type RoleType,
  tenantEmail,
  tenantId,
  tenantParentToken,
} from "./seed.js";

const SCOPE_TEXT: Record<ExchangeRateLimitScope, string> = {
  tenant: " for each tenant",
  user: " for each user",
  global: " for all tenants together",
};

const rolesText = (roles: readonly RoleType[] | readonly string[]) =>
  `${roles.join(", ")}${hasRole(roles, "listUsers") ? "" : ": listing users answers 403"}`;

/**
 * The seeded tenants in a few lines, however many there are: every tenant's credentials follow
 * one pattern, written once with `<i>` for the index.
 */
function tenantLines(count: number): string[] {
  if (count === 0) {
    return [];
  }
  const [login] = DEFAULT_LEGACY_LOGINS;
  return [
    "",
    `Tenants 1 to ${count} (the seed above is tenant 0; tenant <i>'s ids are its ids with <i> in front, main account ${tenantId("<i>", MAIN_ACCOUNT.mainAccountId)}):`,
    ...Object.entries(DEFAULT_PARENT_TOKENS).map(([token, userId]) => {
      const user = findUser(userId);
      return `  ${tenantParentToken("<i>", token)}  ${user ? `${tenantEmail("<i>", user.userName)} (${rolesText(user.roles)})` : ""}`;
    }),
    `  e.g. tenant ${count}: ${tenantParentToken(count, Object.keys(DEFAULT_PARENT_TOKENS)[0] ?? "")}, main account ${tenantId(count, MAIN_ACCOUNT.mainAccountId)}`,
    ...(login
      ? [
          `  direct login: username ${tenantEmail("<i>", login.username)}  password ${login.password}  platformId ${login.platformId}`,
        ]
      : []),
  ];
}

/**
 * What `pnpm start` and the CLI print: URLs, the seeded (fake) credentials, and examples with curl
 * and with the client and auth packages that work against this sandbox as printed.
 */
export function describeSandbox(
  sandbox: Pick<RunningSandbox, "mainUrl" | "legacyUrl" | "seed" | "settings">,
): string {
  const { mainUrl, legacyUrl, seed, settings } = sandbox;
  const { limit, windowMs } = settings.exchangeRateLimit;
  const scope = settings.tenants > 0 ? SCOPE_TEXT[settings.exchangeRateLimitScope] : "";
  const [first] = seed.parentTokens;
  const lines = [
    "Engage Voice sandbox (fake data; no real credentials needed)",
    `  contact-center host    {base_url}         ${mainUrl}`,
    `  deprecated login host  {legacy_base_url}  ${legacyUrl}`,
    `  access tokens live ${settings.tokenLifetimeMs / 1000} s; the exchange allows ${limit} calls in ${windowMs / 1000} s${scope}`,
    ...(settings.faultsEnabled ? [`  fault injection is on: POST ${FAULTS_PATH} on either host`] : []),
    ...(settings.controlEnabled
      ? [`  time and state control is on: POST ${CONTROL_PATH} on either host`]
      : []),
    "",
    "Parent-platform tokens for the exchange (rcAccessToken):",
    ...seed.parentTokens.map(({ token, userName, roles }) => `  ${token}  ${userName} (${rolesText(roles)})`),
    "Direct login on the deprecated host:",
    ...seed.legacyLogins.map(
      ({ username, password, platformId }) =>
        `  username ${username}  password ${password}  platformId ${platformId}`,
    ),
    ...tenantLines(settings.tenants),
  ];
  if (first) {
    lines.push(
      "",
      "Try it with curl:",
      `  TOKEN=$(curl -s -X POST '${mainUrl}/api/auth/login/rc/accesstoken?includeRefresh=true' \\`,
      `    -d rcAccessToken=${first.token} -d rcTokenType=Bearer \\`,
      `    | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).accessToken')`,
      `  curl -s ${mainUrl}/voice/api/v1/admin/accounts -H "Authorization: Bearer $TOKEN"`,
      "",
      "Or with the client and auth packages (TypeScript or ES module):",
      ...typeScriptExample(mainUrl, first.token).map((line) => (line ? `  ${line}` : "")),
    );
  }
  return lines.join("\n");
}

/** A few lines that exchange, refresh when due and list the accounts, against the given host. */
export function typeScriptExample(mainUrl: string, parentToken: string): string[] {
  return [
    'import { createTokenManager } from "@engage-voice/auth";',
    "",
    `const auth = createTokenManager({ baseUrl: "${mainUrl}", rcAccessToken: "${parentToken}" });`,
    "const client = auth.client(); // a client of the manager's host, authorised by it",
    'const { data } = await client.GET("/voice/api/v1/admin/accounts");',
    "console.log(data?.map((account) => account.accountName));",
  ];
}
