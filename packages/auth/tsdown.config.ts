import { defineConfig, type UserConfig } from "tsdown";

const ENTRIES = [
  "src/index.ts",
  "src/node.ts",
  "src/store-kit.ts",
  "src/opentelemetry.ts",
  "src/internal.ts",
];

const common: UserConfig = {
  format: ["esm", "cjs"],
  platform: "neutral",
  target: "es2022",
  external: [/^node:/],
  sourcemap: true,
};

export default defineConfig([
  {
    ...common,
    // index, store-kit and opentelemetry run in browsers, Deno, Bun and workers; node holds the file
    // store and may use node:*, as may internal (what the SDK's other packages share with auth: the token
    // file's checks). opentelemetry imports @opentelemetry/api, an optional peer, left external.
    entry: ENTRIES,
    dts: true,
    clean: true,
  },
  // The `production` export condition (Vite's and webpack's production builds): the same code without
  // the development-only option checks and fix explanations (see src/production.d.ts). Every entry is
  // built again, so that the entries share one copy of each error class in that build too: an
  // `instanceof EngageVoiceAuthError` must hold for an error of the file store or of a store-kit store.
  {
    ...common,
    entry: ENTRIES,
    outDir: "dist/production",
    dts: false,
    clean: false,
    define: { __ENGAGE_VOICE_PRODUCTION__: "true" },
  },
]);
