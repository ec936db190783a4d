// The command line itself: help, version and usage errors (exit 2). No server is needed, and none
// is reachable: every base URL here points at a closed port.
import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMAND_TABLE, COMMANDS } from "../src/commands/index.js";
import { firstWords } from "../src/words.js";
import { BIN, cliIn, tempHome, transcript } from "./helpers.js";
import { expectNoSecrets } from "./scan.js";

let cli: ReturnType<typeof cliIn>;
const packageJson = JSON.parse(await readFile(join(import.meta.dirname, "..", "package.json"), "utf8"));

beforeAll(async () => {
  cli = cliIn(await tempHome());
});

afterAll(() => {
  expectNoSecrets(undefined, ["not-for-history", "hunter2-secret", "s3cr3t-in-url"]);
  expect(transcript.every((r) => !/^\s+at /m.test(r.stderr))).toBe(true);
});

describe("help and version", () => {
  it("--version and -V print the package's version and nothing else", async () => {
    for (const flag of ["--version", "-V"]) {
      const { code, stdout, stderr } = await cli([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${packageJson.version}\n`);
      expect(stderr).toBe("");
    }
  });

  it("--version reads the version of the package.json beside the build, as changeset version leaves it", async () => {
    // A release versions the packages after they may have been built: the bin must not print the
    // version it was built with.
    const copy = await tempHome();
    await cp(dirname(BIN), join(copy, "dist"), { recursive: true });
    await writeFile(join(copy, "package.json"), JSON.stringify({ ...packageJson, version: "9.8.7" }));
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(copy, "dist", "cli.js"),
      "--version",
    ]);
    expect(stdout).toBe("9.8.7\n");
  });

  it("no command, --help, -h and help print the command list and the exit codes", async () => {
    for (const args of [[], ["--help"], ["-h"], ["help"]]) {
      const { code, stdout, stderr } = await cli(args);
      expect(code).toBe(0);
      expect(stderr).toBe("");
      for (const { name } of firstWords(COMMAND_TABLE).filter((word) => word.name !== "help")) {
        expect(stdout).toMatch(new RegExp(`^  ${name} `, "m"));
      }
      expect(stdout).toContain("3  not logged in");
    }
  });

  it.each(COMMANDS.map(({ name, examples }) => ({ name, examples })))(
    "$name --help, -h and help $name show the command's usage and examples",
    async ({ name, examples }) => {
      const words = name.split(" ");
      for (const args of [
        [...words, "--help"],
        [...words, "-h"],
        ["help", ...words],
      ]) {
        const { code, stdout, stderr } = await cli(args);
        expect(code).toBe(0);
        expect(stderr).toBe("");
        expect(stdout).toContain(`Usage: engage-voice ${name}`);
        expect(stdout).toContain("--profile NAME");
        expect(stdout).toContain("\nExamples:\n");
        for (const example of examples) {
          expect(stdout).toContain(`  $ ${example.line}\n`);
        }
      }
    },
  );

  it("completion prints its script whatever the profile, host or config folder settings", async () => {
    // Settings every other command refuses: the script needs none of them.
    const env = {
      ENGAGE_VOICE_CONFIG_DIR: "ev-config",
      ENGAGE_VOICE_BASE_URL: "nope",
      ENGAGE_VOICE_PROFILE: "../x",
    };
    for (const [shell, line] of [
      ["bash", "complete -F _engage_voice engage-voice\n"],
      ["zsh", "compdef _engage_voice engage-voice\n"],
      ["fish", "complete -c engage-voice -f\n"],
    ]) {
      const { code, stdout, stderr } = await cli(["completion", shell as string], { env });
      expect(code).toBe(0);
      expect(stderr).toBe("");
      expect(stdout).toContain(line);
    }
  });

  it("api-tokens --help lists its commands", async () => {
    const { code, stdout } = await cli(["api-tokens", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/create[\s\S]*list[\s\S]*delete \[<token>\]/);
  });
});

describe("usage errors exit 2 with one line naming the fix", () => {
  const cases: [string, string[], RegExp][] = [
    ["an unknown command", ["frobnicate"], /Unknown command 'frobnicate': run engage-voice --help/],
    [
      "a mistyped command, with the one meant",
      ["acounts"],
      /^engage-voice: Unknown command 'acounts' \(did you mean accounts\?\): run engage-voice --help/,
    ],
    ["a command's start", ["prof"], /\(did you mean profiles\?\)/],
    [
      "a mistyped group command",
      ["api-tokens", "lsit"],
      /takes create, list, delete \(did you mean list\?\)/,
    ],
    ["a mistyped help topic", ["help", "tokn"], /Unknown command after help \(did you mean token\?\)/],
    ["help on the sandbox, which has its own", ["help", "sandbox"], /Unknown command after help: run/],
    ["the sandbox after an option", ["--debug", "sandbox"], /Unknown command 'sandbox': run/],
    [
      "a mistyped option, with the one meant",
      ["users", "--flaten"],
      /Unknown option '--flaten' for engage-voice users \(did you mean --flatten\?\): run engage-voice users --help/,
    ],
    ["a mistyped global option", ["token", "--profle", "ci"], /\(did you mean --profile\?\)/],
    [
      "a mistyped option with a value: the value is not quoted",
      ["token", "--porfile=hunter2-secret"],
      /Unknown option '--porfile' for engage-voice token \(did you mean --profile\?\)/,
    ],
    [
      "an option of another command: no guess",
      ["accounts", "--yes"],
      /Unknown option '--yes' for engage-voice accounts: run/,
    ],
    ["a shell completion does not know", ["completion", "pwsh"], /completion takes bash, zsh, fish: run/],
    ["a mistyped shell", ["completion", "zhs"], /completion takes bash, zsh, fish \(did you mean zsh\?\)/],
    ["completion without its shell", ["completion"], /completion takes bash\|zsh\|fish/],
    ["an unknown option", ["users", "--everything"], /Unknown option '--everything' for engage-voice users/],
    ["an unknown option with a value, not quoted", ["users", "--x=hunter2-secret"], /Unknown option '--x'/],
    [
      "the parent token as a flag",
      ["login", "--rc-token=not-for-history"],
      /--rc-token is not accepted.*--rc-token-stdin/,
    ],
    ["the parent token as a flag, spaced", ["login", "--rc-token", "not-for-history"], /shell history/],
    ["a password as a flag", ["api-tokens", "list", "--password", "hunter2-secret"], /--password-stdin/],
    ["--json with --table", ["accounts", "--json", "--table"], /--json and --table/],
    ["a bad profile name", ["token", "--profile", "../etc"], /--profile must be/],
    [
      "a base URL with a path",
      ["token", "--base-url", "https://example.com/api"],
      /--base-url must be an origin/,
    ],
    [
      "a base URL with a password, not quoted",
      ["token", "--base-url", "https://u:s3cr3t-in-url@example.com"],
      /--base-url must not contain a username or password/,
    ],
    [
      "a legacy URL that is no URL",
      ["api-tokens", "list", "--legacy-base-url", "nope"],
      /--legacy-base-url must be an absolute URL/,
    ],
    ["an option without its value", ["users", "--profile"], /--profile <value>' argument missing/],
    ["an argument too many", ["accounts", "extra"], /takes no arguments/],
    ["api-tokens without a command", ["api-tokens"], /needs a command: create, list, delete/],
    ["an unknown api-tokens command", ["api-tokens", "rotate"], /takes create, list, delete/],
    [
      "delete without its token",
      ["api-tokens", "delete", "--yes"],
      /needs the API token: pipe it with --token-stdin/,
    ],
    ["delete with two tokens", ["api-tokens", "delete", "--yes", "--", "a:1", "b:2"], /takes \[<token>\]/],
    [
      "delete with --token-stdin and an argument",
      ["api-tokens", "delete", "--yes", "--token-stdin", "--", "a:1"],
      /from --token-stdin or as an argument, not both/,
    ],
    [
      "delete with --token-stdin and an empty stdin",
      ["api-tokens", "delete", "--yes", "--token-stdin"],
      /empty/,
    ],
    [
      "delete with --token-stdin and a direct login, both on stdin",
      ["api-tokens", "delete", "--yes", "--token-stdin", "--username", "lee", "--platform-id", "p"],
      /--token-stdin takes stdin, which a direct login needs/,
    ],
    ...["CON", "nul", "Com1", "lpt9.json", "aux.", "trailing."].map((name): [string, string[], RegExp] => [
      `profile ${name}, a name Windows refuses`,
      ["token", "--profile", name],
      /--profile cannot be a device name of Windows/,
    ]),
    [
      "delete of something that is no token",
      ["api-tokens", "delete", "--yes", "../x"],
      /must look like <prefix>:<id>/,
    ],
    [
      "delete without --yes off a terminal",
      ["api-tokens", "delete", "sbx01:00000000-0000-0000-0000-000000000000"],
      /pass --yes/,
    ],
    ["login without a token off a terminal", ["login"], /--rc-token-stdin or set ENGAGE_VOICE_RC_TOKEN/],
    ["login with an empty stdin", ["login", "--rc-token-stdin"], /empty/],
    ["a direct login without --platform-id", ["api-tokens", "list", "--username", "lee"], /--platform-id/],
    ["--platform-id without --username", ["api-tokens", "list", "--platform-id", "p"], /go with --username/],
  ];

  it.each(cases)("%s", async (_, args, message) => {
    const { code, stdout, stderr } = await cli(args, {
      env: { ENGAGE_VOICE_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^engage-voice: /);
  });

  it("each host comes from its option, else its variable, and is checked under the option's name", async () => {
    for (const [env, args, option] of [
      [{ ENGAGE_VOICE_LEGACY_BASE_URL: "http://127.0.0.1:9/path" }, [], "--legacy-base-url"],
      [
        { ENGAGE_VOICE_BASE_URL: "http://127.0.0.1:9" },
        ["--legacy-base-url", "ftp://127.0.0.1"],
        "--legacy-base-url",
      ],
      [
        { ENGAGE_VOICE_BASE_URL: "http://127.0.0.1:9/path" },
        ["--legacy-base-url", "http://127.0.0.1:9"],
        "--base-url",
      ],
    ] as const) {
      const { code, stderr } = await cli(["accounts", ...args], { env });
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^engage-voice: ${option} `));
    }
  });

  it("a relative ENGAGE_VOICE_CONFIG_DIR is a usage error that names the variable", async () => {
    const { code, stdout, stderr } = await cli(["token"], { env: { ENGAGE_VOICE_CONFIG_DIR: "ev-config" } });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "engage-voice: ENGAGE_VOICE_CONFIG_DIR must be an absolute path: set it to the full path of the folder\n",
    );
  });

  it("a direct login off a terminal needs --password-stdin", async () => {
    const { code, stderr } = await cli(
      [
        "api-tokens",
        "list",
        "--username",
        "lee",
        "--platform-id",
        "p",
        "--legacy-base-url",
        "http://127.0.0.1:9",
      ],
      {},
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--password-stdin/);
  });
});

describe("not logged in: exit 3", () => {
  it.each(
    ["token", "accounts", "users", "api-tokens list", "api-tokens create"].map((command) => ({ command })),
  )("$command", async ({ command }) => {
    const args = command.split(" ");
    const { code, stdout, stderr } = await cli([
      ...args,
      "--base-url",
      "http://127.0.0.1:9",
      "--profile",
      "ci",
    ]);
    expect(code).toBe(3);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "engage-voice: Not logged in to http://127.0.0.1:9 (profile ci): run engage-voice login --profile ci --base-url http://127.0.0.1:9\n",
    );
  });

  it("logout when not logged in is fine (exit 0)", async () => {
    const { code, stdout } = await cli(["logout", "--base-url", "http://127.0.0.1:9", "--table"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/nothing to forget/);
  });

  it("profiles with none yet", async () => {
    expect((await cli(["profiles", "--table"])).stdout).toMatch(/No profiles yet: run engage-voice login/);
    expect(JSON.parse((await cli(["profiles"])).stdout)).toEqual([]);
  });
});
