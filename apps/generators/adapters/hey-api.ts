// @hey-api/openapi-ts, one output per host document. The adapter: a client per host on the given
// base URL, and an auth callback that answers for one scheme only. The list and delete operations
// accept either credential, and hey-api sends every scheme the callback answers for.
import { createClient as createLegacyClient } from "../hey-api/legacy/client/index.js";
import { client as legacyDefault } from "../hey-api/legacy/client.gen.js";
import * as legacy from "../hey-api/legacy/sdk.gen.js";
import { createClient as createMainClient } from "../hey-api/main/client/index.js";
import { client as mainDefault } from "../hey-api/main/client.gen.js";
import * as main from "../hey-api/main/sdk.gen.js";
import type { Answer, GeneratedClient } from "./calls.js";

type Scheme = { type: string; scheme?: string };
const bearer = (token: string) => (auth: Scheme) => (auth.scheme === "bearer" ? token : undefined);
const apiKey = (token: string) => (auth: Scheme) => (auth.type === "apiKey" ? token : undefined);

const answer = <T>(result: { data?: T; response?: Response }): Answer<T> => ({
  status: result.response?.status ?? 0,
  data: result.data,
});

export const generated: GeneratedClient = {
  defaultHosts: () => ({
    main: mainDefault.getConfig().baseUrl ?? "",
    legacy: legacyDefault.getConfig().baseUrl ?? "",
  }),
  calls: (hosts) => {
    const mainClient = createMainClient({ baseUrl: hosts.main });
    const legacyClient = createLegacyClient({ baseUrl: hosts.legacy });
    return {
      exchangeAccessToken: async (rcAccessToken) =>
        answer(
          await main.exchangeAccessToken({
            client: mainClient,
            body: { rcAccessToken, rcTokenType: "Bearer" },
            query: { includeRefresh: true },
          }),
        ),
      refreshAccessToken: async (refreshToken) =>
        answer(
          await main.refreshAccessToken({
            client: mainClient,
            body: { refresh_token: refreshToken, rcTokenType: "Bearer" },
          }),
        ),
      listAccounts: async (accessToken) =>
        answer(await main.listAccounts({ client: mainClient, auth: bearer(accessToken) })),
      listUsers: async (accessToken) =>
        answer(
          await main.listUsers({ client: mainClient, auth: bearer(accessToken), query: { flatten: true } }),
        ),
      legacyLogin: async (credentials) =>
        answer(await legacy.legacyLogin({ client: legacyClient, query: credentials })),
      createApiToken: async (accessToken) =>
        answer(await legacy.createApiToken({ client: legacyClient, auth: bearer(accessToken) })),
      listApiTokens: async (apiToken) =>
        answer(await legacy.listApiTokens({ client: legacyClient, auth: apiKey(apiToken) })),
      deleteApiToken: async (accessToken, apiToken) =>
        answer(
          await legacy.deleteApiToken({
            client: legacyClient,
            auth: bearer(accessToken),
            path: { apiToken },
          }),
        ),
    };
  },
};
