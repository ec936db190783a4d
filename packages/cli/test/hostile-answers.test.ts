// A host that answers what no API should: terminal escapes in names, a created "token" that is an
// escape sequence, an answer that never ends. The bin runs as a child against the sandbox behind
// proxies that answer one path themselves.
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatedProxy, gatedProxy } from "./gated-proxy.js";
import { API_TOKEN, cliIn, tempHome } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const EXCHANGE = "/api/auth/login/rc/accesstoken";
const ACCOUNTS = "/voice/api/v1/admin/accounts";
const TOKENS = "/voice/api/v1/admin/token";
/** A parent token a server could echo inside something shaped like an error code. */
const CODE_SHAPED_TOKEN = "rcparent.secret9";

/** What a terminal acts on: C0 (ESC, BEL), DEL, C1 (CSI), separators and bidi controls. */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = {
  clipboard: "\x1b]52;c;ZWNobyBvd25lZA==\x07",
  title: "\x1b]0;owned\x07",
  clear: "\x1b[2J",
  link: "\x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\",
  c1: "\u009b2J",
  bidi: "\u202etxt.exe\u202c\u2066x\u2069\u200f\u061c",
};

let sandbox: RunningSandbox;
let main: GatedProxy;
let legacy: GatedProxy;
let cli: ReturnType<typeof cliIn>;
let hosts: string[];

beforeAll(async () => {
  sandbox = await startSandbox({
    exchangeRateLimit: { limit: 1000, windowMs: 60_000 },
    parentTokens: { "sandbox-rc-token-ada": 1001, [CODE_SHAPED_TOKEN]: 1001 },
  });
  main = await gatedProxy(sandbox.mainUrl);
  legacy = await gatedProxy(sandbox.legacyUrl);
  hosts = ["--base-url", main.url, "--legacy-base-url", legacy.url];
  cli = cliIn(await tempHome());
});

afterAll(async () => {
  await main?.close();
  await legacy?.close();
  await sandbox?.stop();
  expectNoSecrets(sandbox);
});

const ada = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;

/** The sandbox's own token answer, its agent's names and IDs replaced by escape sequences. */
async function hostileExchange(): Promise<string> {
  const answer = await fetch(`${sandbox.mainUrl}${EXCHANGE}?includeRefresh=true`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ rcAccessToken: ada(), rcTokenType: "Bearer" }),
  });
  const body = (await answer.json()) as { agentDetails: Record<string, unknown>[] };
  const agent = body.agentDetails[0] as Record<string, unknown>;
  Object.assign(agent, {
    firstName: `Ada${HOSTILE.clipboard}`,
    lastName: `Example${HOSTILE.title}${HOSTILE.bidi}`,
    username: `ada${HOSTILE.link}`,
    accountId: `9999${HOSTILE.clear}`,
    accountName: `Sales${HOSTILE.c1}`,
  });
  return JSON.stringify(body);
}

describe("text from the API reaches stdout printable", () => {
  it("login prints names and account IDs with escapes and bidi controls neutralised; JSON escapes them", async () => {
    const body = await hostileExchange();
    main.answer(EXCHANGE, (_, outgoing) => {
      outgoing.writeHead(200, { "Content-Type": "application/json" }).end(body);
    });
    const table = await cli(["login", "--rc-token-stdin", "--table", ...hosts], { input: ada() });
    expect(table.stderr).toBe("");
    expect(table.code).toBe(0);
    expect(table.stdout).toContain("Logged in to");
    expect(table.stdout).toContain("Accounts: 9999?[2J (Sales?2J)");
    expect(table.stdout).not.toMatch(UNPRINTABLE);

    const json = await cli(["login", "--rc-token-stdin", "--json", ...hosts], { input: ada() });
    expect(json.code).toBe(0);
    expect(json.stdout.replaceAll("\n", "")).not.toMatch(UNPRINTABLE);
    // Escaped, not altered: the data parses back as the API sent it.
    expect(JSON.parse(json.stdout).user.accountName).toBe(`Sales${HOSTILE.c1}`);
    expect(JSON.parse(json.stdout).user.lastName).toBe(`Example${HOSTILE.title}${HOSTILE.bidi}`);
  });

  it.each([
    ["access.denied.exception", true],
    [`echo.${CODE_SHAPED_TOKEN}.exception`, false],
    ["Access.Denied", false],
  ])(
    "accounts quotes the errorCode %j of a refusal: %s (the client's rule, with the session's credentials)",
    async (errorCode, quoted) => {
      main.answer(ACCOUNTS, (_, outgoing) => {
        outgoing
          .writeHead(403, { "Content-Type": "application/json" })
          .end(JSON.stringify({ errorCode, generalMessage: "refused" }));
      });
      const result = await cli(["accounts", ...hosts], { env: { ENGAGE_VOICE_RC_TOKEN: CODE_SHAPED_TOKEN } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("answered 403");
      if (quoted) {
        expect(result.stderr).toContain(`(${errorCode})`);
      } else {
        expect(result.stderr).not.toContain(errorCode);
        expect(result.stderr).not.toContain(CODE_SHAPED_TOKEN);
      }
    },
  );

  it("api-tokens create refuses a created token that is not <prefix>:<id>: exit 1, nothing on stdout", async () => {
    legacy.answer(TOKENS, (incoming, outgoing) => {
      if (incoming.method !== "POST") {
        outgoing.writeHead(404).end();
        return;
      }
      outgoing.writeHead(200, { "Content-Type": "text/plain" }).end(`${HOSTILE.clipboard}:abc`);
    });
    const created = await cli(["api-tokens", "create", ...hosts]);
    expect(created.code).toBe(1);
    expect(created.stdout).toBe("");
    expect(created.stderr).toMatch(/answered unexpectedly \(200\)/);
    expect(created.stderr).not.toMatch(UNPRINTABLE);
  });
});

describe("a host that does not serve the API", () => {
  it("accounts answered 404: exit 1, naming the options rather than asking to try again", async () => {
    main.answer(ACCOUNTS, (_, outgoing) => {
      outgoing.writeHead(404, { "Content-Type": "text/html" }).end("<h1>Not Found</h1>");
    });
    const home = cliIn(await tempHome());
    expect((await home(["login", "--rc-token-stdin", ...hosts], { input: ada() })).code).toBe(0);
    const { code, stdout, stderr } = await home(["accounts"]);
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr: `engage-voice: ${main.url} answered 404: it does not serve this API; check --base-url / --legacy-base-url\n`,
    });
  });
});

describe("an answer too large to read", () => {
  it("one that never ends is cut off at the cap: exit 1, a clear message, nothing on stdout", async () => {
    const chunk = Buffer.from(`${'{"accountId":"99990001"},'.repeat(2000)}`);
    main.answer(ACCOUNTS, (_, outgoing) => {
      outgoing.writeHead(200, { "Content-Type": "application/json" });
      outgoing.write("[");
      let open = true;
      outgoing.on("close", () => {
        open = false;
      });
      const pump = () => {
        while (open && outgoing.write(chunk)) {}
        if (open) {
          outgoing.once("drain", pump);
        }
      };
      pump();
    });
    const result = await cli(["accounts", ...hosts]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/answered \(200\) with a body of more than \d+ KiB, which was not read/);
  });

  it("one that declares a length past the cap is not read at all", async () => {
    main.answer(ACCOUNTS, (_, outgoing) => {
      outgoing.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": String(300 * 1024 ** 2),
      });
      outgoing.write("[");
    });
    const result = await cli(["accounts", ...hosts]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/with a body of more than \d+ KiB, which was not read/);
  });
});

describe("api-tokens delete --token-stdin", () => {
  it("takes the API token from stdin, so that it is not in the process list", async () => {
    // The legacy proxy answers create itself since the test above: the sandbox's own host here.
    const direct = ["--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl];
    const created = await cli(["api-tokens", "create", ...direct]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(API_TOKEN);
    const deleted = await cli(["api-tokens", "delete", "--token-stdin", "--yes", "--table", ...direct], {
      input: `${token}\n`,
    });
    expect(deleted.stderr).toBe("");
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/^Deleted the permanent API token sbx01:…/);
    const listed = await cli(["api-tokens", "list", "--json", ...direct]);
    expect(JSON.parse(listed.stdout)).not.toContain(token);
  });
});
