// orval (fetch client). Two outputs per host document: one reads its base URL at run time from
// `orval-hosts.ts` (orval's `baseUrl.runtime`), the other takes it from the document
// (`getBaseUrlFromSpecification`). The adapter sets the run-time base URLs and passes the one
// credential header each call needs (orval's fetch client leaves authentication to the caller).
import * as legacy from "../orval/legacy.js";
import * as main from "../orval/main.js";
import * as legacyFromDocument from "../orval/servers/legacy.js";
import * as mainFromDocument from "../orval/servers/main.js";
import { fromStatusUnion as answer, type GeneratedClient } from "./calls.js";
import { hosts as runtimeHosts } from "./orval-hosts.js";

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
const apiKey = (token: string) => ({ headers: { "X-Auth-Token": token } });

export const generated: GeneratedClient = {
  defaultHosts: () => ({
    main: new URL(mainFromDocument.getListAccountsUrl()).origin,
    legacy: new URL(legacyFromDocument.getListApiTokensUrl()).origin,
  }),
  calls: (hosts) => {
    Object.assign(runtimeHosts, hosts);
    return {
      exchangeAccessToken: async (rcAccessToken) =>
        answer(
          await main.exchangeAccessToken({ rcAccessToken, rcTokenType: "Bearer" }, { includeRefresh: true }),
          [200],
        ),
      refreshAccessToken: async (refreshToken) =>
        answer(await main.refreshAccessToken({ refresh_token: refreshToken, rcTokenType: "Bearer" }), [200]),
      listAccounts: async (accessToken) => answer(await main.listAccounts(bearer(accessToken)), [200]),
      listUsers: async (accessToken) =>
        answer(await main.listUsers({ flatten: true }, bearer(accessToken)), [200]),
      legacyLogin: async (credentials) => answer(await legacy.legacyLogin(credentials), [200]),
      createApiToken: async (accessToken) => answer(await legacy.createApiToken(bearer(accessToken)), [200]),
      listApiTokens: async (apiToken) => answer(await legacy.listApiTokens(apiKey(apiToken)), [200]),
      deleteApiToken: async (accessToken, apiToken) =>
        answer(await legacy.deleteApiToken(apiToken, bearer(accessToken)), [200, 204]),
    };
  },
};
