// One row of the per-call section in a loop, for `node --cpu-prof`: where the time of an authorised
// call goes, next to bare openapi-fetch. It prints wall and CPU time per call (CPU time moves less on
// a busy machine) and the heap left after a collection: a heap that grows with the calls is a leak.
// Not part of `pnpm bench`. From apps/bench:
//   pnpm exec node --expose-gc [--cpu-prof --cpu-prof-dir=DIR] src/profile-call.ts [row] [calls]
//   row: a key of NAMES in contenders.ts (openapiFetch, client, clientAuth, clientAuthFetch, authClient)
//   HEAP_SNAPSHOT=file.heapsnapshot writes a heap snapshot after the loop.
import { authClientContender, authContender, authFetchContender } from "./auth-rows.ts";
import { contenders, headerMiddleware, NAMES } from "./contenders.ts";
import { BASE_URL, stubServer } from "./stub.ts";

const rows = { ...NAMES } as Record<string, string>;
const [key = "clientAuth", count = "50000"] = process.argv.slice(2);
const name = rows[key];
if (name === undefined) {
  console.error(`Unknown row ${key}; the rows are ${Object.keys(rows).join(", ")}`);
  process.exit(2);
}
const { fetch } = stubServer();
const target = { baseUrl: BASE_URL, fetch, transport: "stub" } as const;
const list = await contenders(target, [
  headerMiddleware(target),
  await authContender(target),
  await authFetchContender(target),
  await authClientContender(target),
]);
const call = list.find((c) => c.name === name)?.call;
if (!call) {
  console.error(`${name} is not timed here`);
  process.exit(2);
}
const calls = Number(count);
if (!Number.isInteger(calls) || calls < 1) {
  console.error(`calls must be a whole number above 0, not ${JSON.stringify(count)}`);
  process.exit(2);
}
const started = performance.now();
const cpu = process.cpuUsage();
for (let i = 0; i < calls; i++) {
  await call();
  // A real call ends in I/O: the microtask queue drains between calls, as it would in an app.
  if (i % 100 === 99) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const micros = ((performance.now() - started) * 1000) / calls;
const used = process.cpuUsage(cpu);
const cpuMicros = (used.user + used.system) / calls;
(globalThis as { gc?: () => void }).gc?.();
if (process.env.HEAP_SNAPSHOT) {
  (await import("node:v8")).writeHeapSnapshot(process.env.HEAP_SNAPSHOT);
}
const heap = (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0);
console.log(
  `${name}: ${micros.toFixed(2)} µs per call, CPU ${cpuMicros.toFixed(2)} µs, over ${calls} calls; heap after them ${heap} MiB`,
);
