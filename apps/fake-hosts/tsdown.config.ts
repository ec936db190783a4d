import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  platform: "node",
  target: "es2022",
  external: [/^@engage-voice\//],
  dts: true,
  sourcemap: true,
  clean: true,
});
