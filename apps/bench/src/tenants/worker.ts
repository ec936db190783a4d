// One worker process of the many-tenants step, forked by main.ts: a tenant pool on the pool's default
// bounds, its stores on one Redis (a server or a cluster), asked for a random tenant's token `rate`
// times a second, or for every tenant's at once (the cold start). It reports over IPC what its callers
// waited and what failed; on SIGTERM it shuts down as a service should (pool.close(), then its Redis
// connections), and on main's word it SIGKILLs itself with a refresh on the wire.
import { AsyncLocalStorage } from "node:async_hooks";
import { writeFileSync } from "node:fs";
import { createTenantPool, poolDefaults, type TokenStore } from "@engage-voice/auth";
import { redisClusterOptions, redisStore } from "@engage-voice/store-redis";
import { createClient, createCluster } from "redis";
import { emptyStats, type FromWorker, type OnWire, type ToWorker, type WorkerConfig } from "./shared.ts";

const config: WorkerConfig = JSON.parse(process.argv[2] as string);
// The IPC channel closes when main dies, however it dies: a worker never outlives it, nor holds a lock.
process.on("disconnect", () => process.exit(1));
const send = (message: FromWorker) =>
  new Promise<void>((resolve) => process.send?.(message, undefined, {}, () => resolve()));

let stats = emptyStats();
const take = () => {
  const taken = stats;
  stats = emptyStats();
  return taken;
};
const failed = (code: string) => {
  stats.errors[code] = (stats.errors[code] ?? 0) + 1;
};

const redis = config.cluster
  ? createCluster({ rootNodes: config.redisUrls.map((url) => ({ url })), ...redisClusterOptions })
  : createClient({ url: config.redisUrls[0] as string });
await redis.connect();
const subscriber = redis.duplicate();
await subscriber.connect();

// Which tenant's renewal is running, for the fetch below (the pool shares one fetch among tenants);
// the token calls on the wire, what a SIGKILL takes with it; and how many at once, the pool's bound.
const renewalOf = new AsyncLocalStorage<string>();
const onWire = new Map<string, { kind: OnWire["kind"]; since: number }>();
let renewalsRunning = 0;
let tokenCalls = 0;
let mostOnWire = 0;

const tokenCallFetch: typeof fetch = async (input, init) => {
  const tenant = renewalOf.getStore();
  // A refresh is on the wire from its mark on (below); an exchange from here.
  if (tenant !== undefined && !String(input instanceof Request ? input.url : input).includes("/refresh")) {
    onWire.set(tenant, { kind: "exchange", since: performance.now() });
  }
  mostOnWire = Math.max(mostOnWire, ++tokenCalls);
  try {
    return await fetch(input, init);
  } finally {
    tokenCalls--;
  }
};

/**
 * The tenant's Redis store, wrapped to know which renewals run here and which token calls are on the
 * wire: a refresh from the moment its set is marked in flight (the others treat its refresh token as
 * spent from then on, whether the request left or not), an exchange from its request; either until
 * its new set is stored or its renewal ends. A SIGKILL in between loses exactly the listed answers.
 */
function store(tenant: string): TokenStore {
  const inner = redisStore({ client: redis, subscriber, tenant });
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

// The bounds a user gets: no exchangeBudget, renewalsAtOnce and maxTenants as poolDefaults has them
// (maxTenants raised only for a run of more tenants, as such a service would).
const served = new Set<string>();
const pool = createTenantPool({
  rcAccessToken: (tenant) => `sandbox-rc-token-${tenant}-ada`,
  store,
  // The managers' warnings go to the run's output (the default logger): none is expected but the kill's.
  manager: { baseUrl: config.baseUrl, fetch: tokenCallFetch },
  maxTenants: Math.max(config.tenants, poolDefaults.maxTenants),
  onEvent(event) {
    if (event.type === "waited" && served.has(event.tenant)) {
      stats.expiryWaits.push(event.ms);
    }
  },
});

/** Whether the JWT's `exp` (whole seconds) has passed: a token no caller should have been given. */
function expired(token: string): boolean {
  const { exp } = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
  return typeof exp !== "number" || exp * 1000 <= Date.now();
}

let callers = 0;
/** One caller's getAccessToken(); resolves whether it got a token. */
async function ask(tenant: string): Promise<boolean> {
  stats.requests++;
  callers++;
  try {
    const token = await pool.get(tenant).getAccessToken();
    served.add(tenant);
    if (expired(token)) {
      failed("expired_token_handed_out");
    }
    return true;
  } catch (error) {
    failed(String((error as { code?: unknown }).code ?? error));
    return false;
  } finally {
    callers--;
  }
}

// `rate` calls a second, issued every TICK_MS in the number due by then. After a stall the missed calls
// are dropped, not sent in a burst: the rate is what callers ask, not a backlog.
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
      void ask(`tenant-${1 + Math.floor(Math.random() * active)}`);
    }
  }, TICK_MS);
}

async function settled(): Promise<void> {
  clearInterval(timer);
  while (callers > 0 || renewalsRunning > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function coldStart(): Promise<FromWorker> {
  mostOnWire = 0;
  const started = performance.now();
  const tenants = Array.from({ length: config.tenants }, (_, i) => `tenant-${i + 1}`);
  const got = await Promise.all(tenants.map(ask));
  const ms = performance.now() - started;
  return { type: "cold", stats: take(), ms, served: got.filter(Boolean).length, mostOnWire };
}

function die(file: string, minAgeMs: number): void {
  const look = setInterval(() => {
    const now = performance.now();
    if (![...onWire.values()].some((call) => call.kind === "refresh" && now - call.since >= minAgeMs)) {
      return;
    }
    clearInterval(look);
    // Written synchronously and the signal sent by this process itself: only here is the moment known
    // at which these calls are on the wire, and nothing runs between the list and the kill.
    writeFileSync(file, JSON.stringify([...onWire].map(([tenant, { kind }]) => ({ tenant, kind }))));
    process.kill(process.pid, "SIGKILL");
  }, 1);
}

process.on("message", (message: ToWorker) => {
  if (message.type === "load") {
    load(message.rampStart, message.rampMs);
  } else if (message.type === "pause") {
    void settled().then(() => send({ type: "paused", stats: take() }));
  } else if (message.type === "cold") {
    void coldStart().then(send);
  } else {
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

await send({ type: "ready" });
