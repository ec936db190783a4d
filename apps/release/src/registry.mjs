// A throwaway npm registry for the release rehearsal: Verdaccio on 127.0.0.1, a free port, no
// uplink (it can serve only what is published into it), its config and storage in a temp folder,
// its process group stopped whole afterwards.
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { startProcess } from "@engage-voice/test-kit/processes";
import { freePort } from "@engage-voice/test-kit/servers";

const require = createRequire(import.meta.url);
/** Where `pnpm --filter @engage-voice/release registry` leaves the rehearsed registry (turbo caches it). */
export const REGISTRY_ARTIFACT = new URL("../.artifacts/registry/", import.meta.url).pathname;
const VERDACCIO = join(require.resolve("verdaccio/package.json"), "..", "bin", "verdaccio");

// The rehearsal's user is hashed with SHA-1, not htpasswd's default bcrypt: Verdaccio checks the
// password again on every request that carries the publish token, and bcrypt (in JavaScript) cost
// about 75 ms of CPU each time, some 4 CPU-s of the matrix's 51 seeded publishes alone. The password
// is in this file: the hash protects nothing.
const CONFIG = `storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: 1
    algorithm: sha1
uplinks: {}
packages:
  "**":
    access: $all
    publish: $authenticated
    unpublish: $authenticated
log: { type: stdout, format: pretty, level: warn }
`;

/**
 * Starts Verdaccio with its config and storage in `dir`; answers its URL, a publish token of a user
 * it created, and `stop()`. Rejects with its output when it does not answer in time.
 */
export async function startRegistry(dir, { publisher = true } = {}) {
  await writeFile(join(dir, "config.yaml"), CONFIG);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const verdaccio = startProcess(
    process.execPath,
    [VERDACCIO, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`],
    { cwd: dir },
  );
  const output = () => verdaccio.output.stdout + verdaccio.output.stderr;
  const stop = async () => {
    await verdaccio.stop("SIGTERM", 30_000);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await fetch(`${url}-/ping`).catch(() => undefined);
    if (answer?.ok) {
      break;
    }
    if (verdaccio.exited || Date.now() > deadline) {
      await stop().catch(() => undefined);
      throw new Error(`Verdaccio did not answer on ${url}:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!publisher) {
    return { url, stop, output };
  }
  const token = await publishToken(url).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, token, stop, output };
}

const USER = { name: "rehearsal", password: "rehearsal-only" };

/**
 * A publish token of the rehearsal's user: created in a new storage, logged in to (Verdaccio wants
 * the password as basic auth then) in a copy of one that has it.
 */
async function publishToken(url) {
  const request = (headers = {}) =>
    fetch(`${url}-/user/org.couchdb.user:${USER.name}`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(USER),
    });
  let answer = await request();
  if (answer.status === 409) {
    const basic = Buffer.from(`${USER.name}:${USER.password}`).toString("base64");
    answer = await request({ authorization: `Basic ${basic}` });
  }
  if (!answer.ok) {
    throw new Error(`Verdaccio refused the rehearsal's user: ${answer.status} ${await answer.text()}`);
  }
  return (await answer.json()).token;
}

/**
 * Publishes a tarball as npm does (one PUT of the packument with the tarball attached), without npm:
 * so a third-party package's own `publishConfig` cannot send it anywhere else.
 */
export async function publishTarball(registry, tarball, manifest) {
  const data = await readFile(tarball);
  const filename = `${manifest.name}-${manifest.version}.tgz`;
  const tarballUrl = `${registry.url}${manifest.name}/-/${basename(filename)}`;
  const dist = {
    tarball: tarballUrl,
    shasum: createHash("sha1").update(data).digest("hex"),
    integrity: `sha512-${createHash("sha512").update(data).digest("base64")}`,
  };
  const body = {
    _id: manifest.name,
    name: manifest.name,
    "dist-tags": { latest: manifest.version },
    versions: { [manifest.version]: { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist } },
    _attachments: {
      [filename]: {
        content_type: "application/octet-stream",
        data: data.toString("base64"),
        length: data.length,
      },
    },
  };
  const answer = await fetch(`${registry.url}${manifest.name.replace("/", "%2f")}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
    body: JSON.stringify(body),
  });
  if (!answer.ok) {
    throw new Error(
      `publishing ${manifest.name}@${manifest.version} answered ${answer.status}: ${await answer.text()}`,
    );
  }
}

/**
 * Serves the registry the rehearsal published to (REGISTRY_ARTIFACT), from a copy of its storage, for
 * tests that install the packages as users do: answers its URL, `release` (the packages and versions
 * it holds: `{ released: [{ name, version, dir }], seeded: ["name@version"] }`) and `stop()`, which
 * also removes the copy. With `publisher`, also a publish `token`: a test that needs more third-party
 * packages than ours pull in publishes them into its copy (`seedThirdParty`).
 */
export async function serveRegistry({ publisher = false } = {}) {
  const release = JSON.parse(
    await readFile(join(REGISTRY_ARTIFACT, "release.json"), "utf8").catch(() => "null"),
  );
  if (!release) {
    throw new Error(
      `no rehearsed registry in ${REGISTRY_ARTIFACT}: run pnpm --filter @engage-voice/release registry (turbo runs it before the tests that need it)`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), "ev-registry-"));
  await cp(REGISTRY_ARTIFACT, dir, { recursive: true });
  const registry = await startRegistry(dir, { publisher }).catch(async (error) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...registry,
    release,
    stop: async () => {
      await registry.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
