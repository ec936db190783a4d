// Our team sync against the contract itself: the Prism mock of the document @engage-voice/spec
// publishes. The mock keeps no state and takes any credential, but with `--errors` it refuses a
// request the document does not allow (naming the violation in `sl-violations`), and it answers
// every documented example and status. So our requests are the document's, and our mapping reads
// every answer the document says may come.
import { readFile } from "node:fs/promises";
import type { User } from "@engage-voice/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTeam, TeamAccessError } from "../../src/team.js";
import { DOCUMENT, type Mock, startMock } from "./prism.js";

type Document = {
  paths: Record<string, { get: { responses: Record<string, { content: Record<string, Examples> }> } }>;
  components: { examples: Record<string, { value: unknown }> };
};
type Examples = { examples: Record<string, { $ref: string }> };

const document: Document = JSON.parse(await readFile(DOCUMENT, "utf8"));
const usersOk = document.paths["/voice/api/v1/admin/users"]?.get.responses["200"];
/** The documented answers of a successful users call, by example name. */
const examples = Object.entries(usersOk?.content["application/json"]?.examples ?? {}).map(
  ([name, { $ref }]) => ({ name, users: document.components.examples[$ref.split("/").pop() ?? ""]?.value }),
);

const idsIn = (users: User[]): number[] => users.flatMap((u) => [u.userId ?? 0, ...idsIn(u.children ?? [])]);

let mock: Mock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

/** A connection to the mock; `prefer` picks a documented answer (`example=flat`, `code=403`). */
const connect = (prefer?: string) =>
  connectTeam({
    baseUrl: mock.url,
    rcAccessToken: "any-token", // the mock checks that a credential is there, not which
    logger: {},
    calls: { maxRetries: 0, ...(prefer ? { headers: { Prefer: prefer } } : {}) },
  });

describe("listTeam against the contract mock", () => {
  it("finds the document's examples of a users answer", () => {
    expect(examples.map(({ name }) => name).length).toBeGreaterThan(0);
  });

  it.each(examples)("maps the documented answer $name: everyone in it, in order", async ({ name, users }) => {
    const team = await connect(`example=${name}`).listTeam();
    expect(team.map((member) => member.id)).toEqual(idsIn(users as User[]));
    for (const member of team) {
      expect(member.name).not.toBe("");
      expect(member.roles.every((role) => role !== "")).toBe(true);
    }
  });

  it("turns the documented 403 into our TeamAccessError", async () => {
    const error = await connect("code=403")
      .listTeam()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TeamAccessError);
    expect(error).toMatchObject({ status: 403 });
  });

  it("would catch a request that breaks the contract: the mock refuses it and says why", async () => {
    const { client } = connect();
    // A flag the document types as a boolean, sent as text: what a typo in our query would be.
    const { response } = await client.GET("/voice/api/v1/admin/users", {
      params: { query: { flatten: "yes" as unknown as boolean } },
    });
    // Prism answers the operation's documented 400 and names the broken part of the request.
    expect(response.status).toBe(400);
    expect(JSON.parse(response.headers.get("sl-violations") ?? "[]")).toEqual([
      expect.objectContaining({ location: ["request", "query", "flatten"], severity: "Error" }),
    ]);
  });
});
