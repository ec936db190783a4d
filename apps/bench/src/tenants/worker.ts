// One worker process of the many-tenants benchmark, forked by main.ts: a tenant pool whose stores are
// on one Redis (a server or a cluster), asked for a random tenant's token `rate` times a second. It
// reports over IPC what its callers waited and what failed; on SIGTERM it shuts down as a service
// should (pool.close(), then its Redis connections), and on main's word it SIGKILLs itself with a
// refresh on the wire.
import { AsyncLocalStorage } from "node:async_hooks";
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createTenantPool, type TokenStore } from "@engage-voice/auth";
import { type RedisLike, redisStore } from "@engage-voice/store-redis";
import { createClient, createCluster } from "redis";
import { emptyStats, type FromWorker, type OnWire, type ToWorker, type WorkerConfig } from "./protocol.ts";

const config: WorkerConfig = JSON.parse(process.argv[2] as string);

// A forked child is not killed with its parent; the IPC channel closes when the parent dies, however
// it dies (a SIGKILL too), so this worker never outlives main and never holds a port or a lock.
process.on("disconnect", () => process.exit(1));

const send = (message: FromWorker) =>
  new Promise<void>((resolve) => process.send?.(message, undefined, {}, () => resolve()));

const gc = (globalThis as { gc?: () => void }).gc;
function heapAfterGc(): number {
  // Twice: the first pass can leave what finalizers released for the second.
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

// How late this process's timers ran: a wait that is this process's own backlog, not Redis's or the host's.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

let stats = emptyStats();
const take = () => {
  const taken = stats;
  taken.loopDelayP99 = loopDelay.percentile(99) / 1e6;
  taken.loopDelayMax = loopDelay.max / 1e6;
  loopDelay.reset();
  stats = emptyStats();
  return taken;
};
const count = (into: Record<string, number>, key: string) => {
  into[key] = (into[key] ?? 0) + 1;
};
const logged = (message: string) =>
  count(stats.logs, message.replace(/tenant-\d+/g, "tenant-…").replace(/\d+/g, "N"));

const redis = config.cluster
  ? createCluster({ rootNodes: config.redisUrls.map((url) => ({ url })) })
  : createClient({ url: config.redisUrls[0] as string });
await redis.connect();
const subscriber = redis.duplicate();
await subscriber.connect();

// What the stores send, counted here: INFO commandstats also counts the commands a script runs.
const node = redis as unknown as RedisLike;
const sent = <T>(command: string, result: T): T => {
  count(stats.sent, command);
  return result;
};
const client: RedisLike = {
  get: (key) => sent("get", node.get(key)),
  set: (key, value, options) => sent("set", node.set(key, value, options)),
  del: (key) => sent("del", node.del(key)),
  eval: (script, options) => sent("eval", node.eval(script, options)),
  evalSha: (sha, options) => sent("evalsha", node.evalSha(sha, options)),
};

// The tenant whose renewal is running, for the fetch below: the pool shares one fetch among tenants.
const renewalOf = new AsyncLocalStorage<string>();
const onWire = new Map<string, { kind: OnWire["kind"]; since: number }>();
let renewalsRunning = 0;

// No bound of its own on token calls: the pool's renewalsAtOnce (its default, as a user gets it) keeps
// thousands of renewals that start together (the ramp, a restarted worker's first uses) from opening a
// socket each to the host at once.
const tokenCallFetch: typeof fetch = (input, init) => {
  const tenant = renewalOf.getStore();
  const url = input instanceof Request ? input.url : String(input);
  // A refresh is on the wire from its mark on (below); an exchange from here.
  if (tenant !== undefined && !url.includes("/refresh")) {
    onWire.set(tenant, { kind: "exchange", since: performance.now() });
  }
  return fetch(input, init);
};

/**
 * The tenant's Redis store, wrapped to know which renewals run here and which token calls are on the
 * wire. A refresh is listed from the moment its set is marked in flight (from then on the others
 * treat its refresh token as spent, whether the request left or not), an exchange from its request;
 * either until its new set is stored or its renewal ends. A SIGKILL in between loses exactly the
 * listed answers.
 */
function store(tenant: string): TokenStore {
  const inner = redisStore({ client, subscriber, tenant });
  const lock = inner.lock?.bind(inner);
  if (lock === undefined) {
    throw new Error("redisStore() has no lock: the benchmark measures renewals under it");
  }
  return {
    ...inner,
    async set(tokens) {
      if (tokens.refreshToken === undefined) {
        onWire.set(tenant, { kind: "refresh", since: performance.now() });
      }
      await inner.set(tokens);
      if (tokens.refreshToken !== undefined) {
        onWire.delete(tenant);
      }
    },
    async lock(task) {
      renewalsRunning++;
      stats.renewals++;
      try {
        return await lock((hold) => renewalOf.run(tenant, () => task(hold)));
      } finally {
        renewalsRunning--;
        onWire.delete(tenant);
      }
    },
  };
}

const served = new Set<string>();
const pool = createTenantPool({
  rcAccessToken: (tenant) => `sandbox-rc-token-${tenant}-ada`,
  store,
  manager: {
    baseUrl: config.baseUrl,
    fetch: tokenCallFetch,
    logger: { warn: logged, error: logged },
  },
  maxTenants: config.tenants,
  onEvent(event) {
    if (event.type === "waited") {
      (served.has(event.tenant) ? stats.expiryWaits : stats.firstWaits).push(event.ms);
    } else if (event.type === "exchanged") {
      stats.exchanged++;
    } else if (event.type === "refreshed") {
      stats.refreshed++;
    }
  },
});

/** Whether the JWT's `exp` (whole seconds) has passed: a token no caller should have been given. */
function expired(token: string): boolean {
  const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
    exp?: number;
  };
  return typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now();
}

let callers = 0;
function ask(tenant: string): void {
  stats.requests++;
  callers++;
  let token: Promise<string>;
  try {
    token = pool.get(tenant).getAccessToken();
  } catch (error) {
    token = Promise.reject(error);
  }
  token
    .then(
      (value) => {
        served.add(tenant);
        if (expired(value)) {
          stats.expiredTokens++;
        }
      },
      (error: unknown) => count(stats.errors, String((error as { code?: unknown }).code ?? error)),
    )
    .finally(() => {
      callers--;
    });
}

// The load: `rate` calls a second, issued every TICK_MS in the number due by then. After a stall the
// missed calls are dropped, not sent in a burst: the rate is what callers ask, not a backlog.
const TICK_MS = 10;
let timer: NodeJS.Timeout | undefined;
function load(rampStart: number, rampMs: number): void {
  const started = performance.now();
  let issued = 0;
  timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) * config.rate) / 1000);
    const batch = Math.min(due - issued, Math.ceil((config.rate * TICK_MS * 5) / 1000));
    issued = due;
    // Tenants come into use over the ramp, so that their tokens expire at moments spread over a lifetime.
    const share = rampMs > 0 ? Math.min(1, Math.max(0, (Date.now() - rampStart) / rampMs)) : 1;
    const active = Math.max(1, Math.ceil(config.tenants * share));
    for (let i = 0; i < batch; i++) {
      ask(`tenant-${1 + Math.floor(Math.random() * active)}`);
    }
  }, TICK_MS);
}

async function settled(): Promise<void> {
  clearInterval(timer);
  while (callers > 0 || renewalsRunning > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function die(file: string, minAgeMs: number): void {
  const look = setInterval(() => {
    const now = performance.now();
    if (![...onWire.values()].some((call) => call.kind === "refresh" && now - call.since >= minAgeMs)) {
      return;
    }
    clearInterval(look);
    const calls: OnWire[] = [...onWire].map(([tenant, call]) => ({
      tenant,
      kind: call.kind,
      ms: Math.round(now - call.since),
    }));
    // Written synchronously and the signal sent by this process itself: only here is the moment known
    // at which these calls are on the wire, and nothing runs between the list and the kill.
    writeFileSync(file, JSON.stringify(calls));
    process.kill(process.pid, "SIGKILL");
  }, 1);
}

process.on("message", (message: ToWorker) => {
  if (message.type === "load") {
    load(message.rampStart, message.rampMs);
  } else if (message.type === "pause") {
    void settled().then(() =>
      send({
        type: "paused",
        stats: take(),
        heapUsed: message.heap ? heapAfterGc() : 0,
        held: pool.size,
      }),
    );
  } else if (message.type === "die") {
    die(message.file, message.minAgeMs);
  }
});

process.once("SIGTERM", async () => {
  clearInterval(timer);
  const renewalsAtSigterm = renewalsRunning;
  // Callers already waiting get the token of the renewal close() lets finish; nobody new asks.
  const drained = await pool.close({ timeoutMs: 20_000 });
  await settled();
  await Promise.all([subscriber.close(), redis.close()]);
  await send({ type: "closed", stats: take(), drained, renewalsAtSigterm });
  process.exit(0);
});

await send({ type: "ready", heapUsed: heapAfterGc() });
