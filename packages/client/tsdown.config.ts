import { defineConfig, type UserConfig } from "tsdown";

const common: UserConfig = {
  entry: ["src/index.ts"],
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
