// scripts/setup.sh, the first command of the README, on a machine where another apt holds its lock
// (unattended-upgrades on a fresh Debian machine does, for minutes): the set-up waits for it rather
// than failing. apt-get, id, sleep and pnpm are stubs on a PATH of their own, which record each call:
// nothing is installed, nothing waits, and the script runs as root without being root.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const pnpmVersion = JSON.parse(await readFile(join(root, "package.json"), "utf8"))
  .packageManager.split("+")[0]
  .split("@")[1];
const scratch = await mkdtemp(join(tmpdir(), "ev-setup-"));
after(() => rm(scratch, { recursive: true, force: true }));

const LOCKED =
  "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)\nE: Unable to lock directory /var/lib/apt/lists/";

/**
 * A bin folder whose apt-get finds its lists' lock held for the first `lockedUpdates` updates (or
 * fails `update` with `updateError`), and a log of every stub's calls.
 */
async function stubs(name, { lockedUpdates = 0, updateError } = {}) {
  const bin = join(scratch, name);
  const log = join(bin, "calls.log");
  await execFileText("mkdir", ["-p", bin]);
  const stub = async (command, body) => {
    await writeFile(join(bin, command), `#!/bin/bash\necho "${command} $*" >> ${log}\n${body}\n`);
    await chmod(join(bin, command), 0o755);
  };
  await stub("id", "echo 0");
  await stub("sleep", "true");
  await stub("pnpm", `[ "$1" = --version ] && echo ${pnpmVersion}; true`);
  await stub(
    "apt-get",
    `if [[ " $* " == *" update "* ]]; then
  ${updateError ? `echo "${updateError}" >&2; exit 100` : ""}
  n=$(grep -c '^apt-get.* update' ${log})
  if [ "$n" -le ${lockedUpdates} ]; then echo "${LOCKED}" >&2; exit 100; fi
fi
true`,
  );
  // The binary that runs this test: under pnpm, the `node` first on PATH is the workspace's shim, a
  // script that finds its binary by a relative path and needs sed and uname.
  await symlink(process.execPath, join(bin, "node"));
  for (const real of ["dirname", "grep"]) {
    await symlink((await execFileText("bash", ["-c", `command -v ${real}`])).trim(), join(bin, real));
  }
  return { bin, calls: async () => (await readFile(log, "utf8")).trim().split("\n") };
}

function execFileText(file, args, options = {}) {
  return new Promise((resolve, reject) =>
    execFile(file, args, options, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}

/** Runs the set-up with only the stubs on PATH (so chromium, java and the rest are missing). */
function setup(bin) {
  return new Promise((resolve) =>
    execFile(
      "/bin/bash",
      [join(root, "scripts", "setup.sh")],
      { env: { PATH: bin, HOME: scratch }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
    ),
  );
}

test("another apt holding the lists' lock is waited for, and apt-get install waits for dpkg's", async () => {
  const { bin, calls } = await stubs("locked", { lockedUpdates: 2 });
  const result = await setup(bin);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /another apt holds its lock: waiting for it/);
  const apt = (await calls()).filter((line) => line.startsWith("apt-get"));
  assert.equal(apt.filter((line) => line.includes(" update")).length, 3);
  const install = apt.find((line) => line.includes(" install "));
  assert.match(install ?? "", /-o DPkg::Lock::Timeout=\d+ /, "apt-get install waits for dpkg's lock");
  assert.ok((await calls()).includes("pnpm install --frozen-lockfile"));
});

test("an update that fails for another reason fails the set-up at once, with apt's message", async () => {
  const { bin, calls } = await stubs("offline", { updateError: "E: Failed to fetch http://deb.debian.org" });
  const result = await setup(bin);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /Failed to fetch/);
  assert.doesNotMatch(result.stderr, /waiting for it/);
  assert.equal((await calls()).filter((line) => line.startsWith("apt-get")).length, 1);
});

test("a lock that is never released ends the wait, naming the lock's holder", async () => {
  const { bin } = await stubs("stuck", { lockedUpdates: 1_000_000 });
  const result = await setup(bin);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /held by process 4242/);
});
