// Our team sync against the sandbox, in process: msw hands every request for the real hosts to a
// fresh sandbox, so the code under test keeps its production URLs and no port is opened. Time is the
// sandbox's clock, which the token manager reads too: an expiry costs no wall time.
import { sandboxHandlers } from "@engage-voice/sandbox/msw";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectTeam, TeamAccessError } from "../src/team.js";

const TOKEN_LIFETIME_MS = 60_000;
const USERS_URL = "https://engage.ringcentral.com/voice/api/v1/admin/users";

const { handlers, apps } = sandboxHandlers({ tokenLifetimeMs: TOKEN_LIFETIME_MS });
const server = setupServer(...handlers);
/** Every answer msw gave, as `METHOD path status`: what the code under test saw on the wire. */
const wire: string[] = [];
server.events.on("response:mocked", ({ request, response }) => {
  wire.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
});

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());
beforeEach(() => {
  apps.control.reset(); // no sessions, counters or clock moves left by the test before
  wire.length = 0;
});

/** Ada's connection, on the sandbox's clock; the waits between retries are recorded, not slept. */
function connectAda(rcAccessToken = "sandbox-rc-token-ada") {
  const waits: number[] = [];
  const team = connectTeam({
    rcAccessToken,
    clock: { now: apps.control.now },
    logger: {},
    calls: {
      sleep: async (ms) => void waits.push(ms),
      random: () => 0, // no jitter: the wait is the server's Retry-After exactly
    },
  });
  return { ...team, waits };
}

describe("listTeam", () => {
  it("lists the active people of the customer's contact center, disabled ones left out", async () => {
    const team = await connectAda().listTeam();
    expect(team.map((member) => member.email)).toEqual([
      "ada.example@example.com",
      "sam.supervisor@example.com",
      "rob.agent@example.com",
      "lee.legacy@example.com",
      "nia.noaccess@example.com",
    ]);
    expect(team[0]).toEqual({
      id: 1001,
      name: "Ada Example",
      email: "ada.example@example.com",
      roles: ["SUPER_USER"],
    });
    expect(apps.control.counters()).toMatchObject({ exchanges: 1, refreshes: 0 });
  });

  it("waits out a 429's Retry-After, then lists the team", async () => {
    // This test alone: the first users call is refused, the next one reaches the sandbox again.
    server.use(
      http.get(USERS_URL, () => HttpResponse.json({}, { status: 429, headers: { "Retry-After": "7" } }), {
        once: true,
      }),
    );
    const ada = connectAda();
    expect(await ada.listTeam()).toHaveLength(5);
    expect(ada.waits).toEqual([7_000]);
    expect(wire.filter((line) => line.startsWith("GET"))).toEqual([
      "GET /voice/api/v1/admin/users 429",
      "GET /voice/api/v1/admin/users 200",
    ]);
  });

  it("renews an access token the server expired early and sends the call again", async () => {
    const ada = connectAda();
    await ada.listTeam();
    expect(apps.control.expireAccessTokens()).toBe(1);
    expect(await ada.listTeam()).toHaveLength(5);
    expect(wire.filter((line) => line.startsWith("GET"))).toEqual([
      "GET /voice/api/v1/admin/users 200",
      "GET /voice/api/v1/admin/users 401",
      "GET /voice/api/v1/admin/users 200",
    ]);
    expect(apps.control.counters()).toMatchObject({ exchanges: 1, refreshes: 1 });
  });

  it("refreshes before the call once the token's lifetime has passed: no 401, no wait", async () => {
    const ada = connectAda();
    await ada.listTeam();
    apps.control.advance(TOKEN_LIFETIME_MS); // the manager reads the same clock
    await ada.listTeam();
    expect(wire).toEqual([
      "POST /api/auth/login/rc/accesstoken 200",
      "GET /voice/api/v1/admin/users 200",
      "POST /api/auth/token/refresh 200",
      "GET /voice/api/v1/admin/users 200",
    ]);
    expect(ada.waits).toEqual([]);
  });

  it("tells a user without the right to list users apart from a failure", async () => {
    // Rob is a plain USER: the sandbox answers 403, as the API does.
    const rob = connectAda("sandbox-rc-token-rob");
    const error = await rob.listTeam().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TeamAccessError);
    expect(error).toMatchObject({ status: 403 });
  });
});
