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
    "**You are on the local sandbox.** Requests go to the sandbox that `pnpm start` runs, and the token exchange and the legacy login start from its seeded credentials: send the exchange, then paste its `accessToken` into the Bearer field of any other operation. The production addresses are the other choices in the server list.";

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
  Scalar.createApiReference("#console", { ...configuration, sources });
})();
