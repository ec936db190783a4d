// Client generators nobody here wrote, as a user runs them: each generates a client from the
// per-host documents of @engage-voice/spec (pinned versions, offline), the generated code and a
// small adapter per generator (adapters/) type-check, and the client calls every operation against
// the sandbox behind `prism proxy --errors`, one proxy per host on that host's document.
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "@engage-voice/sandbox";
import { documentOperations } from "@engage-voice/test-kit";
import { type RunningPrism, startPrism } from "@engage-voice/test-kit/servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { GeneratedClient, Hosts } from "../adapters/calls.js";
import { documentOf, type Finished, GENERATORS, generateClients, HOSTS, typecheck } from "./generate.js";
import { OPERATIONS, runScenario, type Seed } from "./scenario.js";
import { tapFetch } from "./wire.js";

const require = createRequire(import.meta.url);

let workspace: string | undefined;
let typechecked: Promise<Finished> | undefined;
let sandbox: RunningSandbox | undefined;
let proxies: RunningPrism[] = [];
let hosts: Hosts;
let seed: Seed;

/** The sandbox, and a `prism proxy --errors` in front of each of its hosts on that host's document. */
async function startServers() {
  sandbox = await startSandbox();
  const upstream = { main: sandbox.mainUrl, legacy: sandbox.legacyUrl };
  proxies = await Promise.all(
    HOSTS.map((host) =>
      startPrism({
        spec: documentOf(host),
        upstream: upstream[host],
      }),
    ),
  );
  const [main, legacy] = proxies as [RunningPrism, RunningPrism];
  hosts = { main: main.url, legacy: legacy.url };
  const [parent] = sandbox.seed.parentTokens;
  const [login] = sandbox.seed.legacyLogins;
  if (!parent || !login) {
    throw new Error("the sandbox seeds a parent token and a direct login");
  }
  const { username, password, platformId } = login;
  seed = { rcAccessToken: parent.token, login: { username, password, platformId } };
}

beforeAll(async () => {
  // Generating and starting the servers take seconds each; they do not wait for each other.
  [workspace] = await Promise.all([generateClients(), startServers()]);
  // The type-check runs while the clients make their calls; its verdict is the last test.
  typechecked = typecheck(workspace);
});

afterAll(async () => {
  await typechecked?.catch(() => undefined);
  await Promise.all([...proxies.map((proxy) => proxy.stop()), sandbox?.stop()]);
  if (workspace) {
    await rm(workspace, { recursive: true, force: true });
  }
});

/** Each host's first server, as its own document states it. */
const documentHosts = (): Hosts => {
  const firstServer = (host: (typeof HOSTS)[number]) =>
    (require(documentOf(host)) as { servers: { url: string }[] }).servers[0]?.url;
  return { main: firstServer("main") ?? "", legacy: firstServer("legacy") ?? "" };
};

it("the scenario makes every operation of the document, each once", () => {
  expect(
    [...OPERATIONS].sort(),
    "test/scenario.ts's OPERATIONS (and its steps, and adapters/calls.ts's Calls) against the document",
  ).toEqual(documentOperations.map((op) => op.operationId).sort());
});

describe.each(GENERATORS)("%s", (generator) => {
  const load = async () =>
    (
      (await import(join(workspace as string, "adapters", `${generator}.ts`))) as {
        generated: GeneratedClient;
      }
    ).generated;
  let wire: ReturnType<typeof tapFetch> | undefined;
  afterEach(() => wire?.restore());

  it("sends each operation to its own host's server when given no base URL", async () => {
    expect((await load()).defaultHosts()).toEqual(documentHosts());
  });

  it(`makes all ${OPERATIONS.length} operations through prism proxy --errors: ${OPERATIONS.length} successes, 0 violations`, async () => {
    const calls = (await load()).calls(hosts);
    wire = tapFetch();
    const outcomes = await runScenario(calls, seed);
    expect(outcomes.filter((outcome) => outcome.problem !== undefined)).toEqual([]);
    expect(outcomes.map((outcome) => outcome.operationId)).toEqual(OPERATIONS);
    expect(wire.problems()).toEqual([]);
    expect(wire.exchanges).toHaveLength(OPERATIONS.length);
  });
});

it("the generated code and the adapters type-check with the workspace's TypeScript", async () => {
  const { code, output } = await (typechecked as Promise<Finished>);
  expect(output).toBe("");
  expect(code).toBe(0);
});
