import { defineConfig } from "tsdown";

export default defineConfig({
  // index and store-kit run in browsers, Deno, Bun and workers; node holds the file store and may use node:*.
  entry: ["src/index.ts", "src/node.ts", "src/store-kit.ts"],
  format: ["esm", "cjs"],
  platform: "neutral",
  target: "es2022",
  external: [/^node:/],
  dts: true,
  sourcemap: true,
  clean: true,
});
