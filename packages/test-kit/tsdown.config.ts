import { defineConfig } from "tsdown";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/servers.ts",
    "src/child.ts",
    "src/processes.ts",
    "src/readme.ts",
    "src/redis-global-setup.ts",
    "src/workspace.ts",
  ],
  format: ["esm"],
  platform: "node",
  target: "es2022",
  // Resolved at run time from this package's folder: Prism's entry, the bundled document.
  external: [/^@engage-voice\//, "@stoplight/prism-cli", "ajv", "vitest"],
  dts: true,
  sourcemap: true,
  clean: true,
});
