// oazapfts, one module per host document. The adapter: the base URL of each host and the one
// credential header each call needs, passed per call (oazapfts' per-call options), so that the
// modules' `defaults` keep the document's first server.
import * as legacy from "../oazapfts/legacy.js";
import * as main from "../oazapfts/main.js";
import { fromStatusUnion as answer, type GeneratedClient } from "./calls.js";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export const generated: GeneratedClient = {
  defaultHosts: () => ({ main: main.defaults.baseUrl, legacy: legacy.defaults.baseUrl }),
  calls: (hosts) => {
    const onMain = (headers: Record<string, string> = {}) => ({ baseUrl: hosts.main, headers });
    const onLegacy = (headers: Record<string, string> = {}) => ({ baseUrl: hosts.legacy, headers });
    return {
      exchangeAccessToken: async (rcAccessToken) =>
        answer(
          await main.exchangeAccessToken(
            { rcAccessToken, rcTokenType: "Bearer" },
            { includeRefresh: true },
            onMain(),
          ),
          [200],
        ),
      refreshAccessToken: async (refreshToken) =>
        answer(
          await main.refreshAccessToken({ refresh_token: refreshToken, rcTokenType: "Bearer" }, onMain()),
          [200],
        ),
      listAccounts: async (accessToken) =>
        answer(await main.listAccounts(onMain(bearer(accessToken))), [200]),
      listUsers: async (accessToken) =>
        answer(await main.listUsers({ flatten: true }, onMain(bearer(accessToken))), [200]),
      legacyLogin: async ({ username, password, platformId }) =>
        answer(await legacy.legacyLogin(username, password, platformId, onLegacy()), [200]),
      createApiToken: async (accessToken) =>
        answer(await legacy.createApiToken(onLegacy(bearer(accessToken))), [200]),
      listApiTokens: async (apiToken) =>
        answer(await legacy.listApiTokens(onLegacy({ "X-Auth-Token": apiToken })), [200]),
      deleteApiToken: async (accessToken, apiToken) =>
        answer(await legacy.deleteApiToken(apiToken, onLegacy(bearer(accessToken))), [200, 204]),
    };
  },
};
