import { defineConfig } from "tsdown";

export default defineConfig({
  // One bin. Each command is its own chunk, imported when it runs, so `--version` and `--help`
  // load nothing but the argument parser.
  entry: ["src/cli.ts"],
  format: ["esm"],
  platform: "node",
  target: "node20",
  dts: false,
  sourcemap: false,
  clean: true,
  fixedExtension: false,
});
