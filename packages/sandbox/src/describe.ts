// What `pnpm start` and the command line print about a running sandbox: its URLs, the seeded (fake)
// credentials, the limits in force, and examples that work against it as printed.
import { CONTROL_PATH, FAULTS_PATH } from "./app.js";
import type { RunningSandbox } from "./node.js";
import { hasRole } from "./seed.js";

/**
 * What `pnpm start` and the CLI print: URLs, the seeded (fake) credentials, and examples with curl
 * and with the client and auth packages that work against this sandbox as printed.
 */
export function describeSandbox(
  sandbox: Pick<RunningSandbox, "mainUrl" | "legacyUrl" | "seed" | "settings">,
): string {
  const { mainUrl, legacyUrl, seed, settings } = sandbox;
  const { limit, windowMs } = settings.exchangeRateLimit;
  const [first] = seed.parentTokens;
  const lines = [
    "Engage Voice sandbox (fake data; no real credentials needed)",
    `  contact-center host    {base_url}         ${mainUrl}`,
    `  deprecated login host  {legacy_base_url}  ${legacyUrl}`,
    `  access tokens live ${settings.tokenLifetimeMs / 1000} s; the exchange allows ${limit} calls in ${windowMs / 1000} s`,
    ...(settings.faultsEnabled ? [`  fault injection is on: POST ${FAULTS_PATH} on either host`] : []),
    ...(settings.controlEnabled
      ? [`  time and state control is on: POST ${CONTROL_PATH} on either host`]
      : []),
    "",
    "Parent-platform tokens for the exchange (rcAccessToken):",
    ...seed.parentTokens.map(
      ({ token, userName, roles }) =>
        `  ${token}  ${userName} (${roles.join(", ")}${hasRole(roles, "listUsers") ? "" : ": listing users answers 403"})`,
    ),
    "Direct login on the deprecated host:",
    ...seed.legacyLogins.map(
      ({ username, password, platformId }) =>
        `  username ${username}  password ${password}  platformId ${platformId}`,
    ),
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
