// What the test kit starts ends with the process that started it, however that process ends: a
// script starts programs, prints their PIDs and kills itself with SIGKILL (which no handler of its
// own can act on, as when turbo ends a failed run), and every one of them must be gone. Without the
// kit's watcher they all live on: a detached group gets no signal meant for its parent.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { run, startProcess } from "@engage-voice/test-kit/processes";

/** Alive unless gone or a zombie (dead, waiting to be reaped by whoever inherited it). */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Which of `pids` are still alive once a kill has had up to 10 s to land. */
async function survivors(pids) {
  for (let waited = 0; waited < 10_000 && pids.some(alive); waited += 50) {
    await sleep(50);
  }
  return pids.filter(alive);
}

/**
 * Runs a module that fills `pids` with what it started, then prints them and kills itself with
 * SIGKILL. Resolves with those PIDs. The module may keep files in the folder `dir`.
 */
async function killedScript(body) {
  const dir = mkdtempSync(join(tmpdir(), "die-with-parent-"));
  const source = `const pids = [];
const dir = ${JSON.stringify(dir)};
${body}
console.log(JSON.stringify(pids));
process.kill(process.pid, "SIGKILL");`;
  const result = await run(process.execPath, ["--input-type=module", "-e", source], {
    cwd: new URL("..", import.meta.url).pathname,
    timeoutMs: 30_000,
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(
    result.signal,
    "SIGKILL",
    `the script did not get as far as killing itself:\n${result.stderr}`,
  );
  return JSON.parse(result.stdout);
}

/** Kills what a failed test left, so that its failure does not leave processes behind. */
function killAll(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

// A shell that starts a sleep in the background and prints both PIDs: its group's leader and
// another member of the group.
const SHELL = `["-c", 'sleep 600 & echo "$$ $!"; wait']`;

test("a server left running (startProcess) and a program being run (run) die with their parent, whole groups", async () => {
  const pids = await killedScript(`
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { run, startProcess } from "@engage-voice/test-kit/processes";
const server = startProcess("/bin/sh", ${SHELL});
pids.push(...(await server.waitForOutput(/^(\\d+) (\\d+)$/m, 10_000)).slice(1).map(Number));
// run() gives its output at the end, which never comes: the shell writes its PIDs to a file.
const file = join(dir, "pids");
void run("/bin/sh", ["-c", 'sleep 600 & echo "$$ $!" > "$0.part" && mv "$0.part" "$0"; wait', file]);
for (let waited = 0; ; waited += 20) {
  try {
    pids.push(...readFileSync(file, "utf8").trim().split(" ").map(Number));
    break;
  } catch (error) {
    if (waited > 10_000) throw error;
    await sleep(20);
  }
}
`);
  assert.equal(pids.length, 4, String(pids));
  try {
    assert.deepEqual(await survivors(pids), []);
  } finally {
    killAll(pids);
  }
});

test("redis-server started by the kit (a single process, not a group) dies with its parent", async () => {
  const pids = await killedScript(`
import { startRedis } from "@engage-voice/test-kit/servers";
const redis = await startRedis();
pids.push(redis.child.pid);
`);
  assert.equal(pids.length, 1);
  try {
    assert.deepEqual(await survivors(pids), []);
  } finally {
    killAll(pids);
  }
});

// A launcher: a shell that starts a server in its process group, with the server's output elsewhere
// (so nothing holds the launcher's pipes), prints the server's PID and exits.
const LAUNCHER = ["-c", 'sleep 600 </dev/null >/dev/null 2>&1 & echo "$!"'];

test("a server left by a launcher that has exited dies with the parent: the group stays listed while a member lives", async () => {
  const pids = await killedScript(`
import { setTimeout as sleep } from "node:timers/promises";
import { startProcess } from "@engage-voice/test-kit/processes";
const launcher = startProcess("/bin/sh", ${JSON.stringify(LAUNCHER)});
pids.push(Number((await launcher.waitForOutput(/^(\\d+)$/m, 10_000))[1]));
for (let waited = 0; !launcher.exited; waited += 20) {
  if (waited > 10_000) throw new Error("the launcher did not exit");
  await sleep(20);
}
`);
  assert.equal(pids.length, 1, String(pids));
  try {
    assert.deepEqual(await survivors(pids), []);
  } finally {
    killAll(pids);
  }
});

test("stop() ends the launcher's whole group, also once the launcher has exited", async () => {
  const launcher = startProcess("/bin/sh", LAUNCHER);
  const server = Number((await launcher.waitForOutput(/^(\d+)$/m, 10_000))[1]);
  try {
    for (let waited = 0; !launcher.exited; waited += 20) {
      assert.ok(waited < 10_000, "the launcher did not exit");
      await sleep(20);
    }
    assert.equal(await launcher.stop("SIGTERM", 10_000), 0);
    // stop() resolves once the group is gone: nothing is left to wait for.
    assert.equal(alive(server), false, `the server (${server}) outlived stop()`);
  } finally {
    killAll([server]);
  }
});
