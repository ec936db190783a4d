import { defineConfig } from "tsdown";

/** What `--version` and `--help` load: the parser and the command objects, which import no package. */
const PARSER =
  /[\\/]src[\\/](usage|command|env|exit|suggest|commands[\\/](index|api-tokens[\\/]options|.+[\\/]index))\.ts$/;

export default defineConfig({
  // One bin, and two chunks beside it: the parser, and the code of every command, imported when a
  // command runs. One chunk for all commands, not one each: a cold start pays per module loaded,
  // and a command loads most of the shared code anyway.
  entry: ["src/cli.ts"],
  // The parser's did-you-mean uses the SDK's one edit distance (the client's internal entry): inlined
  // into the parser's chunk, so that --version and --help still load no package.
  noExternal: (id, importer) =>
    id === "@engage-voice/client/internal" && /[\\/]src[\\/]suggest\.ts$/.test(importer ?? ""),
  format: ["esm"],
  platform: "node",
  target: "node20",
  dts: false,
  sourcemap: false,
  clean: true,
  fixedExtension: false,
  outputOptions: {
    codeSplitting: {
      groups: [
        { name: "usage", test: PARSER, priority: 2 },
        // The fast `engage-voice token` (a valid stored session): what it reads, without the run chunk,
        // which loads the token manager and the clients.
        { name: "stored", test: /[\\/]src[\\/](config|commands[\\/]token[\\/]stored)\.ts$/, priority: 1.5 },
        { name: "run", test: /[\\/]src[\\/](?!cli\.ts$)/, priority: 1 },
      ],
    },
  },
});
