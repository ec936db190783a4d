import { defineConfig, type UserConfig } from "tsdown";

const common: UserConfig = {
  // index: the public entry; internal: what the SDK's other packages share with it (no semver promise).
  // Built together, so that both entries share one copy of each module (one ClientOptionsError class).
  entry: ["src/index.ts", "src/internal.ts"],
  format: ["esm", "cjs"],
  platform: "neutral",
  target: "es2022",
  sourcemap: true,
};

export default defineConfig([
  { ...common, dts: true, clean: true },
  // The `production` export condition (Vite's and webpack's production builds): the same code without
  // the development-only option checks (src/production.d.ts), which a bundler then drops.
  {
    ...common,
    outDir: "dist/production",
    dts: false,
    clean: false,
    define: { __ENGAGE_VOICE_PRODUCTION__: "true" },
  },
]);
