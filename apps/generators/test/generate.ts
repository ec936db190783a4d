// Generates every client into one scratch folder, each generator by its own CLI on the per-host
// documents of @engage-voice/spec, all at once; then copies the adapters beside them and type-checks
// the lot with the workspace's TypeScript. The folder links this package's node_modules, so the
// generated code finds its runtime (@oazapfts/runtime) as a user's project would.
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** The generators under test; each has `adapters/<name>.ts`. */
export const GENERATORS = ["hey-api", "orval", "oazapfts"] as const;
export type Generator = (typeof GENERATORS)[number];

export const HOSTS = ["main", "legacy"] as const;
/** The path of a host's document in @engage-voice/spec. */
export const documentOf = (host: (typeof HOSTS)[number]) =>
  require.resolve(`@engage-voice/spec/openapi.${host}.json`);

/** A package's bin script, read from its package.json (not every package exports that file). */
async function binOf(name: string, bin: string): Promise<string> {
  const dir = join(packageDir, "node_modules", name);
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  return join(dir, manifest.bin[bin] as string);
}

export interface Finished {
  code: number | null;
  output: string;
}

/** Runs a Node script to its end in `cwd`, on the Node that runs the tests; stdin is closed. */
export function runNode(script: string, args: string[], cwd: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk).slice(-8000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function mustRun(label: string, script: string, args: string[], cwd: string): Promise<void> {
  const { code, output } = await runNode(script, args, cwd);
  if (code !== 0) {
    throw new Error(`${label} exited with code ${code}:\n${output}`);
  }
}

/** openapi-ts reads a config file: one job per host document. */
const heyApiConfig = () => HOSTS.map((host) => ({ input: documentOf(host), output: `hey-api/${host}` }));

/**
 * orval reads a config file. Each host gets two outputs: one reads its base URL at run time
 * (adapters/orval-hosts.ts), the other takes it from the document's servers.
 */
const orvalConfig = () =>
  Object.fromEntries(
    HOSTS.flatMap((host) => {
      const input = { target: documentOf(host) };
      const runtime = {
        runtime: `hosts.${host}`,
        imports: [{ name: "hosts", importPath: "../adapters/orval-hosts" }],
      };
      return [
        [host, { input, output: { target: `./orval/${host}.ts`, client: "fetch", baseUrl: runtime } }],
        [
          `${host}-servers`,
          {
            input,
            output: {
              target: `./orval/servers/${host}.ts`,
              client: "fetch",
              baseUrl: { getBaseUrlFromSpecification: true },
            },
          },
        ],
      ];
    }),
  );

/** Generates every client into a new scratch folder and returns it. */
export async function generateClients(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "engage-voice-generators-"));
  await symlink(join(packageDir, "node_modules"), join(dir, "node_modules"), "dir");
  await mkdir(join(dir, "oazapfts")); // oazapfts writes its file but does not make its folder
  const configs = { "openapi-ts.config.mjs": heyApiConfig(), "orval.config.mjs": orvalConfig() };
  for (const [file, config] of Object.entries(configs)) {
    await writeFile(join(dir, file), `export default ${JSON.stringify(config, null, 2)};\n`);
  }
  const [heyApi, orval, oazapfts] = await Promise.all([
    binOf("@hey-api/openapi-ts", "openapi-ts"),
    binOf("orval", "orval"),
    binOf("oazapfts", "oazapfts"),
  ]);
  await Promise.all([
    cp(join(packageDir, "adapters"), join(dir, "adapters"), { recursive: true }),
    mustRun("openapi-ts", heyApi, [], dir),
    mustRun("orval", orval, ["--config", "orval.config.mjs"], dir),
    ...HOSTS.map((host) =>
      mustRun(`oazapfts (${host})`, oazapfts, [documentOf(host), `oazapfts/${host}.ts`], dir),
    ),
  ]);
  return dir;
}

/**
 * Type-checks the generated code and the adapters with the workspace's TypeScript and compiler
 * options but one: `exactOptionalPropertyTypes`, which the generators' own runtime code (hey-api's
 * client core, oazapfts' form helper) is not written for, whatever the document says.
 */
export async function typecheck(dir: string): Promise<Finished> {
  const base = join(packageDir, "..", "..", "tsconfig.base.json");
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: base,
      compilerOptions: { types: [], exactOptionalPropertyTypes: false },
      include: ["adapters", ...GENERATORS],
    }),
  );
  return runNode(await binOf("typescript-7", "tsc"), ["-p", "tsconfig.json", "--pretty", "false"], dir);
}
