import { randomBytes } from "node:crypto";
import { getHeapSnapshot, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { legacyLogin } from "../src/index.js";
import { fakeClock, fakeServer, LEGACY_BASE, LEGACY_USER } from "./fake-server.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Whether the heap holds the string; it is made only after the snapshot, so the search cannot find itself. */
async function heapHolds(needle: () => string): Promise<boolean> {
  let text = "";
  for await (const chunk of getHeapSnapshot()) {
    text += chunk;
  }
  return text.includes(needle());
}

it("keeps no password once legacyLogin returns", async () => {
  const server = fakeServer({ clock: fakeClock() });
  // The password exists as a JS string only inside the call; the test keeps its bytes.
  const secret = randomBytes(24);
  const needle = () => secret.toString("hex");
  let options: object | undefined = {
    ...LEGACY_USER,
    password: needle(),
    baseUrl: LEGACY_BASE,
    logger: {},
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      url.searchParams.set(
        "password",
        url.searchParams.get("password") === needle() ? LEGACY_USER.password : "x",
      );
      return server.fetch(new Request(url, request));
    },
  };
  const ref = new WeakRef(options);
  const tokens = await legacyLogin(options as Parameters<typeof legacyLogin>[0]);
  options = undefined;
  expect(tokens.accessToken).toMatch(/^ey/);
  server.requests.length = 0;
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  expect(ref.deref()).toBeUndefined();
  expect(await heapHolds(needle)).toBe(false);
});
