import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/node.ts", "src/app.ts", "src/msw.ts", "src/cli-main.ts"],
  format: ["esm"],
  platform: "node",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  fixedExtension: false,
});
