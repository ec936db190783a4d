// The sandbox as Mock Service Worker handlers: a test's fetch calls to the hosts are answered by the
// sandbox's apps in the same process, with no port at all (msw 2 or 3, an optional peer dependency).
import { checkOrigin, defaultBaseUrls } from "@engage-voice/client/internal";
import { http, type RequestHandler } from "msw";
import { createSandboxApps, type SandboxApps, type SandboxOptions } from "./app.js";

export interface SandboxHandlersOptions extends SandboxOptions {
  /** The contact-center host the code under test calls; default `https://engage.ringcentral.com`. */
  baseUrl?: string;
  /** The deprecated login host; default `https://portal.vacd.biz`. */
  legacyBaseUrl?: string;
}

export interface SandboxHandlers {
  /** For `setupServer(...handlers)` (msw/node) or `setupWorker(...handlers)` (msw/browser). */
  handlers: RequestHandler[];
  /** The apps behind the handlers: their seeded credentials, faults and settings. */
  apps: SandboxApps;
}

/** An origin under the client's rule (`checkOrigin`), or a TypeError that names the option. */
const originOf = (url: string, option: string) => {
  const checked = checkOrigin(url);
  if ("problem" in checked) {
    throw new TypeError(`${option} ${checked.problem}`);
  }
  return checked.origin;
};

/** Handlers that send every request for either host to a fresh sandbox. */
export function sandboxHandlers(options: SandboxHandlersOptions = {}): SandboxHandlers {
  const { baseUrl = defaultBaseUrls.main, legacyBaseUrl = defaultBaseUrls.legacy, ...rest } = options;
  const main = originOf(baseUrl, "baseUrl");
  const legacy = originOf(legacyBaseUrl, "legacyBaseUrl");
  const apps = createSandboxApps(rest);
  return {
    apps,
    handlers: [
      http.all(`${main}/*`, ({ request }) => apps.main.fetch(request)),
      http.all(`${legacy}/*`, ({ request }) => apps.legacy.fetch(request)),
    ],
  };
}
