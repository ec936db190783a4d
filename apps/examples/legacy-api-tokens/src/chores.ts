// The deprecated host's chores, for an account without a parent-platform login: a direct login, then
// a permanent API token created, used for a call and deleted. Never print a permanent token: it
// does not expire, so whoever reads it can use it until someone deletes it.
import { apiTokenMiddleware, apiTokens, legacyLogin } from "@engage-voice/auth";
import { createLegacyClient } from "@engage-voice/client";

const baseUrl = process.env.ENGAGE_VOICE_LEGACY_BASE_URL ?? "https://portal.vacd.biz";

// The deprecated direct login (it warns once that it is deprecated): a bearer access token.
const { accessToken } = await legacyLogin({
  baseUrl,
  username: process.env.EV_USERNAME ?? "",
  password: process.env.EV_PASSWORD ?? "",
  platformId: process.env.EV_PLATFORM_ID ?? "",
});

// Creating a permanent token needs that bearer token; every create makes a new one.
const permanent = await apiTokens({ baseUrl, auth: { accessToken } }).create();
console.log("created a permanent API token");

// Used: X-Auth-Token on every request of a client of the deprecated host, and on that host only.
const legacy = createLegacyClient({ baseUrl });
legacy.use(apiTokenMiddleware(permanent, { baseUrl }));
const { data: tokens, error } = await legacy.GET("/voice/api/v1/admin/token");
if (error !== undefined) {
  throw new Error("Listing the permanent API tokens with the new one failed");
}
console.log(`listed with it: this user has ${tokens.length} permanent API token(s)`);

// Deleted, by itself (a token may delete itself), so that it cannot be used again.
await apiTokens({ baseUrl, auth: { apiToken: permanent } }).delete(permanent);
console.log("deleted it");
