// Starts Scalar on the inlined per-host documents. When `pnpm start` filled the sandbox settings in,
// the sandbox's address comes first in each document's servers and its seeded credentials are the
// examples the request panel starts from; the production addresses stay as the other choices. From
// disk the page offers production only and holds no credential.
(() => {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const sources = read("console-sources");
  const configuration = read("console-configuration");
  const sandbox = read("sandbox-settings");

  const operation = (spec, id) =>
    Object.values(spec.paths)
      .flatMap((item) => Object.values(item))
      .find((candidate) => candidate?.operationId === id);
  const parameter = (spec, op, name) =>
    op.parameters
      .map((p) => (p.$ref ? spec.components.parameters[p.$ref.split("/").pop()] : p))
      .find((p) => p.name === name);
  const NOTE =
    "**You are on the local sandbox.** Requests go to the sandbox that `pnpm start` runs, and the token exchange and the legacy login start from its seeded credentials: send the exchange, then paste its `accessToken` into the Bearer field of one other operation and send it: every operation of both hosts then sends that token. The production addresses are the other choices in the server list.";

  // The bundle's samples (x-codeSamples) name one host, written in: they are for the published
  // reference. Without them Scalar writes each operation's samples for the server selected in the
  // page, the sandbox or a production address, and rewrites them when another is picked.
  for (const { content } of sources) {
    for (const item of Object.values(content.paths)) {
      for (const op of Object.values(item)) {
        if (op && typeof op === "object") {
          delete op["x-codeSamples"];
        }
      }
    }
  }

  if (sandbox.mainUrl) {
    const here = "This sandbox (pnpm start): seeded, fake credentials";
    const [main, legacy] = sources.map((source) => source.content);
    main.servers.unshift({ url: sandbox.mainUrl, description: here });
    legacy.servers.unshift({ url: sandbox.legacyUrl, description: here });
    const exchange = operation(main, "exchangeAccessToken").requestBody.content[
      "application/x-www-form-urlencoded"
    ];
    exchange.example = { ...exchange.example, rcAccessToken: sandbox.rcAccessToken };
    const login = operation(legacy, "legacyLogin");
    for (const name of ["username", "password", "platformId"]) {
      parameter(legacy, login, name).example = sandbox[name];
    }
    for (const spec of [main, legacy]) {
      spec.info.description = `${NOTE}\n\n${spec.info.description}`;
    }
  }

  // Scalar keeps a bearer token per document, and the console has one document per host: a token
  // sent from either is handed to both, so it is entered once. It stays in the page (no storage).
  let shared = "";
  let sent = "";
  const settings = () => ({
    ...configuration,
    sources,
    ...(shared
      ? {
          authentication: {
            preferredSecurityScheme: "bearerAuth",
            securitySchemes: { bearerAuth: { token: shared } },
          },
        }
      : {}),
    onBeforeRequest: ({ request }) => {
      sent = /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
    },
    // Once the answer is in: a new configuration while the request is under way would redraw it.
    onResponseReceived: () => {
      if (sent && sent !== shared) {
        shared = sent;
        app.updateConfiguration(settings());
      }
    },
  });
  const app = Scalar.createApiReference("#console", settings());
})();
