// Size budgets, enforced by `pnpm test` (size-limit exits non-zero over a limit). Bytes of an esbuild
// bundle (ESM, minified, browser), raw and gzipped, of each entry in size/. Limits sit about 2% above
// the sizes of the commit that set them, so growth is a decision: raise one only with the reason in
// the commit message (the history of each raise is in the log of apps/bench/size-budget.json, which
// this file replaced). Public packages without a browser bundle are named in test/bundles.test.ts.
import type { SizeLimitConfig } from "size-limit";

interface Entry {
  name: string;
  path: string;
  /** Bytes, minified and min+gzip; none for a reference row, which is printed, not held. */
  limits?: [minified: number, gzip: number];
  /**
   * Resolve the `production` export condition, as Vite's and webpack's production builds do: the
   * packages' development-only option checks and explanations are left out.
   */
  production?: boolean;
  /** Dependencies left out of the weight: a peer the app brings whatever this package weighs. */
  ignore?: string[];
}

const entries: Entry[] = [
  { name: "@engage-voice/client", path: "size/client.js", limits: [20_870, 8_250] },
  { name: "@engage-voice/auth", path: "size/auth.js", limits: [58_230, 21_080] },
  {
    name: "@engage-voice/client + @engage-voice/auth",
    path: "size/client-auth.js",
    limits: [59_860, 21_680],
  },
  {
    name: "an app's imports: createClient + createTokenManager",
    path: "size/app.js",
    limits: [40_560, 15_130],
    production: true,
  },
  {
    name: "@engage-voice/auth/opentelemetry (without its peer @opentelemetry/api)",
    path: "size/auth-opentelemetry.js",
    limits: [3_050, 1_490],
    ignore: ["@opentelemetry/api"],
  },
  { name: "the floor: createClient + a one-line bearer middleware", path: "size/floor.js", production: true },
  { name: "openapi-fetch", path: "size/openapi-fetch.js" },
  // The anchors of "is this a fair price" for an authorised client (issue 40): printed, not held.
  { name: "octokit core + auth-token (no renewal)", path: "size/octokit-auth-token.js" },
  { name: "Azure core-rest-pipeline + bearer policy (renews)", path: "size/azure-bearer.js" },
  { name: "openapi-fetch + a minimal rotation by hand", path: "size/openapi-fetch-rotation.js" },
  { name: "ky", path: "size/ky.js" },
  { name: "ofetch", path: "size/ofetch.js" },
];

export default entries.flatMap(({ name, path, limits, production, ignore }) =>
  (["minified", "min+gzip"] as const).map((kind, i) => ({
    name: `${name} (${kind})`,
    path,
    gzip: kind === "min+gzip",
    brotli: false,
    ...(limits ? { limit: `${limits[i]} B` } : {}),
    ...(ignore ? { ignore } : {}),
    modifyEsbuildConfig: <T extends object>(config?: T) =>
      ({
        ...config,
        format: "esm",
        platform: "browser",
        target: "es2022",
        legalComments: "none",
        ...(production ? { conditions: ["production"] } : {}),
      }) as T,
  })),
) satisfies SizeLimitConfig;
