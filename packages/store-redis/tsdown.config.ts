import { defineConfig } from "tsdown";

export default defineConfig({
  // No node:* import: the store runs wherever a Redis client does (Node, Bun, Deno).
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
});
