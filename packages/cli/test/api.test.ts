// `engage-voice api` as a real process against the sandbox: both hosts and their credentials, both
// kinds of field, --input from a file and from stdin, a path outside the document refused and let
// through, hosts that fail, no session; then the debug lines of one command counted, and a scan of
// every byte written for secrets.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { operationTable } from "@engage-voice/client";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatedProxy, gatedProxy } from "./gated-proxy.js";
import { API_TOKEN, cliIn, JWT, type Result, storedTokens, tempHome } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

const ACCOUNTS = "/voice/api/v1/admin/accounts";
const TOKENS = "/voice/api/v1/admin/token";
/** A path the document does not have, which the proxy answers in the service's place with what it got. */
const SETTINGS = "/voice/api/v1/admin/accounts/99990001/settings";

let sandbox: RunningSandbox;
/** The contact-center host as the profile knows it: the sandbox's, behind a proxy that answers SETTINGS. */
let main: GatedProxy;
let home: string;
let cli: ReturnType<typeof cliIn>;
const refreshTokens: string[] = [];

interface Echo {
  method: string;
  query: Record<string, string[]>;
  contentType: string | undefined;
  bearer: boolean;
  body: string;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    faults: { enabled: true },
    exchangeRateLimit: { limit: 1000, windowMs: 60_000 },
  });
  main = await gatedProxy(sandbox.mainUrl);
  main.answer(SETTINGS, (incoming, outgoing) => {
    let body = "";
    incoming.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://proxy.invalid");
      const query: Record<string, string[]> = {};
      for (const key of new Set(url.searchParams.keys())) {
        query[key] = url.searchParams.getAll(key);
      }
      const echo: Echo = {
        method: incoming.method ?? "",
        query,
        contentType: incoming.headers["content-type"],
        bearer: JWT.test(incoming.headers.authorization ?? ""),
        body,
      };
      outgoing.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(echo));
    });
  });
  home = await tempHome();
  cli = cliIn(home);
  const login = await cli(
    ["login", "--rc-token-stdin", "--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl],
    { input: ada() },
  );
  expect(login.code, login.stderr).toBe(0);
  refreshTokens.push((await storedTokens(home, "default", main.url)).refreshToken as string);
});

afterAll(async () => {
  await main?.close();
  await sandbox?.stop();
  expectNoSecrets(sandbox, refreshTokens);
});

const ada = () => sandbox.seed.parentTokens.find((p) => p.token.endsWith("-ada"))?.token as string;

function ok(result: Result): Result {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result;
}

/** Exit `code`, nothing on stdout, and the last line of stderr the error line matching `message`. */
function failed(result: Result, code: number, message: RegExp): string[] {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines.at(-1)).toMatch(/^engage-voice: /);
  expect(lines.at(-1)).toMatch(message);
  return lines;
}

const echoOf = (result: Result) => JSON.parse(ok(result).stdout) as Echo;

describe("the contact-center host, with the profile's session", () => {
  it("GET prints the answer as JSON on one line in a pipe; the method may be left out", async () => {
    const { stdout } = ok(await cli(["api", "GET", ACCOUNTS]));
    expect(stdout.trimEnd().split("\n")).toHaveLength(1);
    const accounts = JSON.parse(stdout) as { accountId: string }[];
    expect(accounts.map((a) => a.accountId)).toEqual(sandbox.seed.accountIds);
    expect(ok(await cli(["api", ACCOUNTS])).stdout).toBe(stdout);
    expect(ok(await cli(["api", "get", ACCOUNTS])).stdout).toBe(stdout);
  });

  it("GET sends the fields as a query string: -F typed, -f as written", async () => {
    const flat = ok(await cli(["api", "GET", "/voice/api/v1/admin/users", "-F", "flatten=true"]));
    const users = JSON.parse(flat.stdout) as { children?: unknown }[];
    expect(users).toHaveLength(6);
    expect(users.every((u) => u.children === undefined)).toBe(true);
    const echo = echoOf(
      await cli(["api", "GET", SETTINGS, "-f", "a=1", "-F", "b=2", "-F", "c=null", "--allow-unknown-path"]),
    );
    expect(echo).toMatchObject({ method: "GET", query: { a: ["1"], b: ["2"], c: [""] }, body: "" });
  });

  it("PUT sends -f fields as strings and -F fields typed (@file, @- from stdin, nested), in a JSON body", async () => {
    const note = join(home, "note.txt");
    await writeFile(note, "line one\nline two\n");
    const args = ["api", "PUT", SETTINGS, "--allow-unknown-path"];
    const raw = ["-f", "name=Sales", "-f", "count=3", "-f", "on=true", "-f", "at=@home"];
    const typed = ["-F", "limit=3", "-F", "enabled=true", "-F", "paused=false", "-F", "end=null"];
    const nested = ["-F", "tags[]=a", "-F", "tags[]=b", "-F", "owner[id]=7", "-F", "empty[]"];
    const files = ["-F", `note=@${note}`, "--field", "stdin=@-", "-F", "big=12345678901234567890"];
    const echo = echoOf(await cli([...args, ...raw, ...typed, ...nested, ...files], { input: "from stdin" }));
    expect(echo.method).toBe("PUT");
    expect(echo.bearer).toBe(true);
    expect(echo.contentType).toBe("application/json");
    expect(JSON.parse(echo.body)).toEqual({
      name: "Sales",
      count: "3",
      on: "true",
      at: "@home",
      limit: 3,
      enabled: true,
      paused: false,
      end: null,
      tags: ["a", "b"],
      owner: { id: 7 },
      empty: [],
      note: "line one\nline two\n",
      stdin: "from stdin",
      // Beyond the integers JSON numbers hold exactly: kept as written.
      big: "12345678901234567890",
    });
  });

  it("--input sends a file, or stdin, as the body as it is; the fields then go to the query string", async () => {
    const file = join(home, "settings.json");
    const body = '{"timezone": 5,\n "inbound": true}\n';
    await writeFile(file, body);
    const fromFile = echoOf(
      await cli(["api", "PATCH", SETTINGS, "--input", file, "-F", "dryRun=true", "--allow-unknown-path"]),
    );
    expect(fromFile).toMatchObject({ method: "PATCH", body, query: { dryRun: ["true"] } });
    expect(fromFile.contentType).toBe("application/json");
    const fromStdin = echoOf(
      await cli(["api", "POST", SETTINGS, "--input", "-", "--allow-unknown-path"], { input: body }),
    );
    expect(fromStdin).toMatchObject({ method: "POST", body, query: {} });
  });

  it("--include prints the status line and headers before the body, never a credential", async () => {
    const { stdout } = ok(await cli(["api", "-i", "GET", ACCOUNTS]));
    const [head, body] = stdout.split("\n\n");
    expect(head?.split("\n")[0]).toBe("HTTP 200 OK");
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(head).not.toMatch(/authorization|x-auth-token/i);
    expect(JSON.parse(body as string)).toHaveLength(3);
  });
});

describe("the deprecated host", () => {
  let created: string;

  it("with the profile's access token: a created token is printed as the host answered it", async () => {
    const { stdout } = ok(await cli(["api", "POST", TOKENS]));
    expect(stdout).toMatch(new RegExp(`^${API_TOKEN.source}\\n$`));
    created = stdout.trim();
  });

  it("with a permanent API token from ENGAGE_VOICE_API_TOKEN or stdin, and no session at all", async () => {
    const elsewhere = cliIn(await tempHome());
    const hosts = ["--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl];
    const env = { ENGAGE_VOICE_API_TOKEN: created };
    const listed = ok(await elsewhere(["api", "GET", TOKENS, ...hosts], { env }));
    expect(JSON.parse(listed.stdout)).toContain(created);
    const piped = ok(await elsewhere(["api", TOKENS, "--api-token-stdin", ...hosts], { input: created }));
    expect(piped.stdout).toBe(listed.stdout);
    // A path parameter is written in the path: the document's template matches it.
    const deleted = ok(await elsewhere(["api", "DELETE", `${TOKENS}/${created}`, ...hosts], { env }));
    // The document's answer, the text `true`, as it came (with a line break).
    expect(deleted.stdout).toBe("true\n");
    // Now refused: the token was the credential (exit 1: not the profile's, so no login helps).
    const lines = failed(
      await elsewhere(["api", "GET", TOKENS, ...hosts], { env }),
      1,
      new RegExp(`^engage-voice: ${sandbox.legacyUrl} refused the credentials`),
    );
    expect(lines.join("\n")).not.toContain(created);
  });

  it("a token that is not there: exit 1, the host's body on stderr as JSON, the token in it never", async () => {
    const gone = `sbx01:${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`;
    const lines = failed(
      await cli(["api", "DELETE", `${TOKENS}/${gone}`]),
      1,
      new RegExp(`^engage-voice: ${sandbox.legacyUrl} answered 404 \\(token\\.not\\.found\\.exception\\)`),
    );
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ errorCode: "token.not.found.exception" });
    expect(lines.join("\n")).not.toContain(gone);
  });
});

describe("paths outside the document", () => {
  it("are refused (exit 2, nothing sent) with the nearest path, and methods with the document's", async () => {
    let result = await cli(["api", "GET", "/voice/api/v1/admin/acounts"]);
    failed(
      result,
      2,
      /no path .* \(did you mean \/voice\/api\/v1\/admin\/accounts\?\).*--allow-unknown-path/,
    );
    result = await cli(["api", "DELETE", "/voice/api/v1/admin/tokn/sbx01:abc"]);
    failed(result, 2, /did you mean \/voice\/api\/v1\/admin\/token\/\{apiToken\}\?/);
    expect(result.stderr).not.toContain("sbx01:abc");
    failed(await cli(["api", "PUT", ACCOUNTS]), 2, /no PUT \/voice\/api\/v1\/admin\/accounts: it has GET/);
    failed(await cli(["api", "GTE", ACCOUNTS]), 2, /Unknown method 'GTE' \(did you mean GET\?\)/);
    failed(await cli(["api", "https://example.com/x"]), 2, /the path alone/);
    failed(await cli(["api", ACCOUNTS, "-f", "a=b"]), 2, /without a method: name it/);
    // Nothing sent: no request line under debug, only the error and its stack.
    const quiet = await cli(["api", "GET", "/voice/api/v1/admin/acounts"], {
      env: { ENGAGE_VOICE_LOG: "debug" },
    });
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).not.toContain("→");
  });

  it("go with --allow-unknown-path to the contact-center host, or below a deprecated path to that host", async () => {
    const main404 = failed(
      await cli(["api", "GET", "/voice/api/v1/admin/campaigns", "--allow-unknown-path"]),
      1,
      new RegExp(`^engage-voice: ${main.url} answered 404`),
    );
    expect(JSON.parse(main404[0] as string)).toHaveProperty("errorCode");
    failed(
      await cli(["api", "GET", `${TOKENS}/sbx01:abc/usage`, "--allow-unknown-path"]),
      1,
      new RegExp(`^engage-voice: ${sandbox.legacyUrl} answered 404`),
    );
  });
});

describe("hosts that fail", () => {
  it("a 500 on a GET (tried again, then given up): exit 1, naming the host", async () => {
    sandbox.faults.next({ kind: "status", status: 500, path: ACCOUNTS, times: 3 });
    try {
      failed(await cli(["api", "GET", ACCOUNTS]), 1, new RegExp(`^engage-voice: ${main.url} answered 500`));
    } finally {
      sandbox.faults.clear();
    }
  });

  it("a 500 on a POST of the deprecated host (never tried again): exit 1, naming the host", async () => {
    sandbox.faults.next({ kind: "status", status: 500, path: TOKENS });
    failed(
      await cli(["api", "POST", TOKENS]),
      1,
      new RegExp(`^engage-voice: ${sandbox.legacyUrl} answered 500`),
    );
    expect(sandbox.faults.pending).toBe(0);
  });

  it("a host that refuses the connection: exit 1, naming it", async () => {
    const gone = await gatedProxy(sandbox.mainUrl);
    const goneHome = cliIn(await tempHome());
    const login = await goneHome(["login", "--rc-token-stdin", "--base-url", gone.url], { input: ada() });
    expect(login.code).toBe(0);
    await gone.close();
    failed(
      await goneHome(["api", "GET", ACCOUNTS]),
      1,
      new RegExp(`^engage-voice: No answer from ${gone.url}`),
    );
    const legacy = await goneHome(["api", "GET", TOKENS, "--legacy-base-url", gone.url], {
      env: { ENGAGE_VOICE_API_TOKEN: "sbx01:not-sent-anywhere" },
    });
    failed(legacy, 1, new RegExp(`^engage-voice: No answer from ${gone.url}`));
  });
});

describe("without a session", () => {
  it("exit 3 on either host, and log in", async () => {
    const nobody = cliIn(await tempHome());
    const hosts = ["--base-url", main.url, "--legacy-base-url", sandbox.legacyUrl];
    failed(await nobody(["api", "GET", ACCOUNTS, ...hosts]), 3, /Not logged in .*run engage-voice login/);
    failed(await nobody(["api", "GET", TOKENS, ...hosts]), 3, /Not logged in .*run engage-voice login/);
  });
});

describe("the document's operations", () => {
  it("engage-voice api alone lists every operation of the document", async () => {
    const rows = JSON.parse(ok(await cli(["api"])).stdout) as { operationId: string }[];
    expect(rows.map((row) => row.operationId)).toEqual(operationTable.map((op) => op.operationId));
  });
});

describe("ENGAGE_VOICE_LOG=debug", () => {
  it("writes one line for the request, with its host", async () => {
    const { code, stderr } = await cli(["api", "GET", ACCOUNTS], { env: { ENGAGE_VOICE_LOG: "debug" } });
    expect(code).toBe(0);
    expect(stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^\\[debug\\] GET ${main.url}${ACCOUNTS} → 200 in \\d+ ms$`)),
    ]);
  });
});
