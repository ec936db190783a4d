// Runs copy-paste samples the way a reader would: curl samples with the real curl binary under bash,
// TypeScript samples type-checked by tsc and run by Node (type stripping) against the built packages,
// Python samples with python3 and requests, Java samples with the JDK's `java File.java`.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { defaultBaseUrls } from "@engage-voice/client/internal";
import type { RunningSandbox } from "@engage-voice/sandbox";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** Where sample files go: inside the docs app, so that they import its @engage-voice dependencies. */
export const samplesDir = new URL("../test-results/samples/", import.meta.url).pathname;

// Every call reports its status on stderr, so that samples that capture curl's output still show it.
const CURL_PREAMBLE = `set -euo pipefail
curl() { command curl --silent --show-error --write-out '%{stderr}HTTP %{http_code}\\n' "$@"; }
`;

export interface Run {
  stdout: string;
  stderr: string;
  /** The HTTP status of every call, in order. */
  statuses: number[];
}

/** Only the variables given (and PATH): a sample must not lean on the tester's own environment. */
const environment = (variables: Record<string, string>) => ({ PATH: process.env.PATH ?? "", ...variables });

/**
 * The variables a sample reads: `$NAME` in the shell, `process.env.NAME` in TypeScript,
 * `os.environ["NAME"]` in Python, `System.getenv("NAME")` in Java.
 */
export function variablesIn(source: string): string[] {
  const names = [
    ...source.matchAll(
      /\$\{?([A-Z][A-Z0-9_]*)|process\.env\.([A-Z][A-Z0-9_]*)|(?:os\.environ\[|System\.getenv\()["']([A-Z][A-Z0-9_]*)["']/g,
    ),
  ];
  return [...new Set(names.map((m) => (m[1] ?? m[2] ?? m[3]) as string))];
}

export async function runCurl(source: string, variables: Record<string, string>): Promise<Run> {
  // The folder may not exist yet when a file runs before the one that writes samples into it.
  await mkdir(samplesDir, { recursive: true });
  const { stdout, stderr } = await run("bash", ["-c", CURL_PREAMBLE + source], {
    env: environment(variables),
    cwd: samplesDir,
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string; killed?: boolean }) => {
    const why = error.killed ? "stopped after 60 s without finishing" : error.message;
    throw new Error(`curl sample failed: ${why}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  });
  return { stdout, stderr, statuses: [...stderr.matchAll(/^HTTP (\d{3})$/gm)].map((m) => Number(m[1])) };
}

/** Writes TypeScript samples as .mts files, by name. */
export async function writeSamples(sources: Record<string, string>): Promise<Record<string, string>> {
  await mkdir(samplesDir, { recursive: true });
  const files: Record<string, string> = {};
  for (const [name, source] of Object.entries(sources)) {
    files[name] = join(samplesDir, `${name}.mts`);
    await writeFile(files[name], source);
  }
  return files;
}

/** Type-checks sample files together, as strictly as the SDK's own code. */
export async function typecheck(files: string[]): Promise<void> {
  // TypeScript 7's `exports` do not list bin/tsc.
  const tsc = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");
  // --ignoreConfig: the samples stand alone; apps/docs' own tsconfig.json is not theirs.
  const options = [
    "--ignoreConfig",
    "--noEmit",
    "--strict",
    "--exactOptionalPropertyTypes",
    "--skipLibCheck",
  ];
  options.push(
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "--target",
    "es2022",
    "--types",
    "node",
  );
  await run(process.execPath, [tsc, ...options, ...files], { timeout: 60_000 }).catch(
    (error: { stdout?: string; message: string }) => {
      throw new Error(`TypeScript samples do not type-check:\n${error.stdout ?? error.message}`);
    },
  );
}

/** Runs a TypeScript sample file with Node; the sample prints the answer's status first. */
export async function runTypeScript(file: string, variables: Record<string, string>): Promise<Run> {
  const { stdout, stderr } = await run(process.execPath, [file], {
    env: environment(variables),
    cwd: samplesDir,
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `TypeScript sample failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`,
    );
  });
  const status = stdout.match(/^(\d{3})\b/)?.[1];
  return { stdout, stderr, statuses: status ? [Number(status)] : [] };
}

/**
 * Runs a program that reads its sample from a file and prints the answer's status first (the Python
 * and Java samples do), with only the sample's variables set.
 */
async function runProgram(label: string, command: string[], variables: Record<string, string>): Promise<Run> {
  const [file, ...args] = command as [string, ...string[]];
  const { stdout, stderr } = await run(file, args, {
    env: environment(variables),
    cwd: samplesDir,
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${label} sample failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  });
  const status = stdout.match(/^(\d{3})\b/)?.[1];
  return { stdout, stderr, statuses: status ? [Number(status)] : [] };
}

let python: Promise<string> | undefined;
/**
 * The python3 that has requests: the one on PATH, else Debian's, where scripts/setup.sh installs
 * python3-requests when no python3 on the machine has it.
 */
function pythonWithRequests(): Promise<string> {
  python ??= (async () => {
    for (const candidate of ["python3", "/usr/bin/python3"]) {
      const found = await run(candidate, ["-c", "import requests"]).then(
        () => true,
        () => false,
      );
      if (found) {
        return candidate;
      }
    }
    throw new Error("no python3 with requests: run scripts/setup.sh (it installs Debian's python3-requests)");
  })();
  return python;
}

/** Runs a Python sample with a python3 that has requests. */
export async function runPython(name: string, source: string, variables: Record<string, string>) {
  await mkdir(samplesDir, { recursive: true });
  const file = join(samplesDir, `${name}.py`);
  await writeFile(file, source);
  return runProgram("Python", [await pythonWithRequests(), file], variables);
}

/**
 * The Java samples by name, compiled together on first use by the JDK's javac (as a reader building
 * them would) and each run with `java` on its public class, which names its file. One javac for all of
 * them: the single-file launcher (`java File.java`) compiled each one in a JVM of its own, about
 * 0.6 CPU-s apiece. A sample that does not compile fails every run with javac's own message.
 */
export function javaSamples(sources: Record<string, string>) {
  const dir = join(samplesDir, "java");
  const classes = join(dir, "classes");
  let compiled: Promise<Record<string, string>> | undefined;
  const compile = async () => {
    await mkdir(classes, { recursive: true });
    const classOf: Record<string, string> = {};
    const files: string[] = [];
    for (const [sample, source] of Object.entries(sources)) {
      const name = source.match(/^public class (\w+)/m)?.[1];
      if (!name) {
        throw new Error(`the Java sample ${sample} has no public class:\n${source}`);
      }
      if (Object.values(classOf).includes(name)) {
        throw new Error(`two Java samples declare the public class ${name}: each needs a file of its own`);
      }
      classOf[sample] = name;
      const file = join(dir, `${name}.java`);
      files.push(file);
      await writeFile(file, source);
    }
    // C1 only, here and in each run: a sample runs for a second, too short for the optimising
    // compiler to pay for the CPU it takes.
    await run("javac", ["-J-XX:TieredStopAtLevel=1", "-d", classes, ...files], { timeout: 120_000 }).catch(
      (error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(
          `Java samples do not compile: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`,
        );
      },
    );
    return classOf;
  };
  return {
    async run(sample: string, variables: Record<string, string>): Promise<Run> {
      compiled ??= compile();
      const name = (await compiled)[sample];
      if (!name) {
        throw new Error(`no Java sample named ${sample}: the samples are ${Object.keys(sources).join(", ")}`);
      }
      return runProgram("Java", ["java", "-XX:TieredStopAtLevel=1", "-cp", classes, name], variables);
    },
  };
}

/** Replaces the document's production hosts with the sandbox's, as a reader pointing a sample elsewhere would. */
export function onSandbox(source: string, sandbox: Pick<RunningSandbox, "mainUrl" | "legacyUrl">): string {
  return source
    .replaceAll(defaultBaseUrls.main, sandbox.mainUrl)
    .replaceAll(defaultBaseUrls.legacy, sandbox.legacyUrl);
}

const form = (fields: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(fields) });

/**
 * Fresh credentials for one sample, from the sandbox's seeded ones: a refresh token works once and a
 * delete spends its API token, so no two samples share them. `host` picks whose access token
 * `$ACCESS_TOKEN` holds.
 */
export async function credentials(
  sandbox: Pick<RunningSandbox, "mainUrl" | "legacyUrl" | "seed">,
  host: "main" | "legacy",
  login = sandbox.seed.legacyLogins[0],
): Promise<Record<string, string>> {
  const parent = sandbox.seed.parentTokens[0];
  if (!parent || !login) {
    throw new Error("the sandbox has no seeded credentials");
  }
  const exchanged = await fetch(
    `${sandbox.mainUrl}/api/auth/login/rc/accesstoken?includeRefresh=true`,
    form({ rcAccessToken: parent.token, rcTokenType: "Bearer" }),
  );
  if (exchanged.status !== 200) {
    throw new Error(`exchange answered ${exchanged.status}`);
  }
  const tokens = (await exchanged.json()) as { accessToken: string; refreshToken: string };
  const query = new URLSearchParams({
    username: login.username,
    password: login.password,
    platformId: login.platformId,
  });
  const loggedIn = await fetch(`${sandbox.legacyUrl}/api/auth/login/admin?${query}`, { method: "POST" });
  if (loggedIn.status !== 200) {
    throw new Error(`direct login answered ${loggedIn.status}`);
  }
  const legacy = (await loggedIn.json()) as { accessToken: string };
  const created = await fetch(`${sandbox.legacyUrl}/voice/api/v1/admin/token`, {
    method: "POST",
    headers: { Authorization: `Bearer ${legacy.accessToken}` },
  });
  if (created.status !== 200) {
    throw new Error(`creating an API token answered ${created.status}`);
  }
  return {
    RC_ACCESS_TOKEN: parent.token,
    ACCESS_TOKEN: host === "main" ? tokens.accessToken : legacy.accessToken,
    REFRESH_TOKEN: tokens.refreshToken,
    EV_USERNAME: login.username,
    EV_PASSWORD: login.password,
    EV_PLATFORM_ID: login.platformId,
    API_TOKEN: await created.text(),
  };
}
