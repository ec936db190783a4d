// The command array is the one list of commands: every example in its help parses to its command,
// the completion scripts offer exactly what it holds, and the bin's start-up loads none of it but
// the parser. In process, no server.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { operationTable } from "@engage-voice/client";
import { describe, expect, it } from "vitest";
import { argumentWords, bashScript, fishScript, zshScript } from "../src/commands/completion/scripts.js";
import { SHELLS } from "../src/commands/completion/shells.js";
import { COMMAND_TABLE, COMMANDS, GROUPS, HANDED_OVER } from "../src/commands/index.js";
import { GLOBAL_OPTIONS, type Options } from "../src/options.js";
import { parseCommandLine } from "../src/usage.js";
import { firstWords } from "../src/words.js";
import { BIN, tempHome } from "./helpers.js";

/** The words after `engage-voice` in a shell line, up to a pipe, redirection or the end of `$(…)`. */
function argsOf(line: string): string[] {
  const after = line.slice(line.indexOf("engage-voice ") + "engage-voice ".length);
  const words: string[] = [];
  for (const word of after.match(/"[^"]*"|'[^']*'|\S+/g) ?? []) {
    if (/^[|<>)]/.test(word)) {
      break;
    }
    // `$(engage-voice token)`: the substitution ends inside the word.
    const [inside, rest] = word.split(")");
    words.push((inside ?? "").replace(/^["']|["']$/g, ""));
    if (rest !== undefined) {
      break;
    }
  }
  return words;
}

const flags = (options: Options) =>
  Object.entries(options).flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]);

describe("the command array", () => {
  it("has a row of the README's command table for every command", async () => {
    const readme = await readFile(join(dirname(BIN), "..", "README.md"), "utf8");
    const rows = readme.split("\n").filter((line) => line.startsWith("| `"));
    const missing = [...COMMANDS.map((command) => command.name), HANDED_OVER.name].filter(
      (name) => !rows.some((row) => row.startsWith(`| \`${name}\``) || row.startsWith(`| \`${name} `)),
    );
    expect(missing, "add a row for each to the command table of packages/cli/README.md").toEqual([]);
  });

  it("runs api for every line of the README's api block", async () => {
    const readme = await readFile(join(dirname(BIN), "..", "README.md"), "utf8");
    const block = readme.split("<!-- api:start -->")[1]?.split("<!-- api:end -->")[0] ?? "";
    const lines = block.split("\n").filter((line) => line.includes("engage-voice api"));
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const parsed = parseCommandLine(argsOf(line.replace(/\s+#.*$/, "")));
      expect(parsed.kind === "run" && parsed.spec.name, line).toBe("api");
    }
  });

  it("names each command once", () => {
    const names = COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      const first = name.split(" ")[0] as string;
      expect(name === first || GROUPS.some((group) => group.name === first)).toBe(true);
    }
  });

  it.each(COMMANDS.map((command) => ({ name: command.name, command })))(
    "every example of $name is a command line that runs it",
    ({ command }) => {
      expect(command.examples.length).toBeGreaterThan(0);
      for (const example of command.examples) {
        const parsed = parseCommandLine(argsOf(example.line));
        expect(parsed.kind === "run" && parsed.spec).toBe(command);
      }
    },
  );
});

describe("completion", () => {
  /** What the bash script offers for a command line whose last word is being typed. */
  async function bashOffers(...words: string[]): Promise<string[]> {
    const script = join(await tempHome(), "engage-voice.bash");
    await writeFile(script, bashScript(COMMAND_TABLE, await argumentWords(COMMAND_TABLE)));
    const shellWords = ["engage-voice", ...words].map((w) => `'${w}'`).join(" ");
    const out = execFileSync(
      "bash",
      [
        "-c",
        `source "$1"; COMP_WORDS=(${shellWords}); COMP_CWORD=${words.length}; _engage_voice; printf '%s\\n' "\${COMPREPLY[@]}"`,
        "bash",
        script,
      ],
      { encoding: "utf8" },
    );
    return out.split("\n").filter(Boolean).sort();
  }

  const sorted = (list: string[]) => [...list].sort();

  it("bash offers every first word, and a group's commands", async () => {
    expect(await bashOffers("")).toEqual(sorted(firstWords(COMMAND_TABLE).map((word) => word.name)));
    expect(await bashOffers("--profile", "ci", "api-tokens", "")).toEqual(["create", "delete", "list"]);
    expect(await bashOffers("api-tokens", "d")).toEqual(["delete"]);
    expect(await bashOffers("help", "")).toEqual(
      sorted(
        firstWords(COMMAND_TABLE).flatMap(({ name }) =>
          name === "help" || name === HANDED_OVER.name ? [] : [name],
        ),
      ),
    );
    expect(await bashOffers("completion", "")).toEqual(sorted([...SHELLS]));
  });

  it.each(COMMANDS.map((command) => ({ name: command.name, command })))(
    "bash offers $name's own options and the global ones",
    async ({ command }) => {
      expect(await bashOffers(...command.name.split(" "), "-")).toEqual(
        sorted(flags({ ...command.options, ...GLOBAL_OPTIONS })),
      );
    },
  );

  it("bash offers api's methods and the document's paths, after a method the paths it has", async () => {
    const upper = (method: string) => method.toUpperCase();
    const pathsOf = (method: string) => [
      ...new Set(operationTable.filter((op) => op.method === method).map((op) => op.path)),
    ];
    const methods = [...new Set(operationTable.map((op) => upper(op.method)))];
    expect(await bashOffers("api", "")).toEqual(sorted([...methods, ...pathsOf("get")]));
    // Past the values of -F/-f (short options that take one) as past those of long ones.
    expect(await bashOffers("api", "-F", "a=1", "--profile", "ci", "")).toEqual(
      sorted([...methods, ...pathsOf("get")]),
    );
    for (const method of new Set(operationTable.map((op) => op.method))) {
      expect(await bashOffers("api", upper(method), "")).toEqual(sorted(pathsOf(method)));
    }
    expect(await bashOffers("api", "DELETE", "/voice/api/v1/admin/t")).toEqual(
      pathsOf("delete").filter((path) => path.startsWith("/voice/api/v1/admin/t")),
    );
    expect(await bashOffers("api", "-f", "")).toEqual([]);
  });

  it.each([
    ["zsh", zshScript],
    ["fish", fishScript],
  ])("the %s script offers the document's paths after api", async (_, script) => {
    const text = script(COMMAND_TABLE, await argumentWords(COMMAND_TABLE));
    for (const op of operationTable) {
      expect(text).toContain(`'${op.path}`);
      // zsh keys its words by `api POST`; fish by the words seen so far.
      expect(text).toMatch(
        new RegExp(`'api ${op.method.toUpperCase()}'|seen_subcommand_from ${op.method.toUpperCase()};`),
      );
    }
  });

  it("bash offers nothing for an option's value, nor for the sandbox's own flags", async () => {
    expect(await bashOffers("users", "--profile", "")).toEqual([]);
    expect(await bashOffers(HANDED_OVER.name, "--")).toEqual([]);
  });

  it.each([
    ["zsh", zshScript],
    ["fish", fishScript],
  ])("the %s script names every command and option", (_, script) => {
    const text = script(COMMAND_TABLE);
    for (const command of COMMANDS) {
      for (const word of command.name.split(" ")) {
        expect(text).toContain(`'${word}`);
      }
      for (const name of Object.keys(command.options)) {
        expect(text).toMatch(new RegExp(`'--${name}:|-l ${name} `));
      }
    }
    for (const name of Object.keys(GLOBAL_OPTIONS)) {
      expect(text).toMatch(new RegExp(`'--${name}:|-l ${name} `));
    }
  });

  it("the zsh script is one compdef function, loadable from $fpath or by source", () => {
    const text = zshScript(COMMAND_TABLE);
    expect(text.startsWith("#compdef engage-voice\n")).toBe(true);
    expect(text).toContain("compdef _engage_voice engage-voice");
  });
});

describe("start-up", () => {
  it("--version and --help load no package: the bin's static imports reach node: modules and chunks only", async () => {
    const seen = new Set<string>();
    const visit = async (file: string) => {
      if (seen.has(file)) {
        return;
      }
      seen.add(file);
      const code = await readFile(file, "utf8");
      for (const [, from] of code.matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gm)) {
        expect(from, `${file} imports ${from} at start-up`).toMatch(/^(node:|\.\/)/);
        if (from?.startsWith("./")) {
          await visit(join(dirname(file), from));
        }
      }
    };
    await visit(BIN);
    expect(seen.size).toBeGreaterThan(1);
  });
});
