import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Client,
  createClient,
  type MainPaths,
  type Middleware,
  type TokenResponse,
} from "@engage-voice/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Session, TokenManager, TokenSet } from "../src/index.js";
import * as entry from "../src/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every module the main entry loads, following relative imports. */
function graph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) {
    return seen;
  }
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const [, spec] of source.matchAll(/from\s+"([^"]+)"/g)) {
    if (spec?.startsWith(".")) {
      graph(join(dirname(file), spec.replace(/\.js$/, ".ts")), seen);
    } else {
      seen.add(spec as string);
    }
  }
  return seen;
}

describe("package entries", () => {
  it("keeps the main entry free of Node-only modules", () => {
    const modules = [...graph(join(root, "src/index.ts"))];
    expect(modules.filter((m) => m.startsWith("node:") || /^(fs|path|crypto|os)$/.test(m))).toEqual([]);
    expect(modules.filter((m) => !m.startsWith("/")).sort()).toEqual([
      "@engage-voice/client",
      "@engage-voice/client/internal",
    ]);
    expect(modules).not.toContain(join(root, "src/node.ts"));
  });

  it("keeps the store kit free of Node-only modules: a store for Deno, Bun or a worker can use it", () => {
    const modules = [...graph(join(root, "src/store-kit.ts"))];
    expect(modules.filter((m) => !m.startsWith("/")).sort()).toEqual([
      "@engage-voice/client",
      "@engage-voice/client/internal",
    ]);
    expect(modules).not.toContain(join(root, "src/node.ts"));
  });

  it("keeps OpenTelemetry to its own entry: no other entry loads it, and it loads no code of theirs", () => {
    for (const entry of ["index", "node", "store-kit"]) {
      const modules = [...graph(join(root, `src/${entry}.ts`))];
      expect(
        modules.filter((m) => m.includes("opentelemetry")),
        entry,
      ).toEqual([]);
    }
    // What it loads at run time: its imports and re-exports that are not of types only.
    const source = readFileSync(join(root, "src/opentelemetry.ts"), "utf8");
    const loaded = [...source.matchAll(/^(?:import|export) (?!type )[^;]*?from "([^"]+)"/gms)].map(
      (m) => m[1],
    );
    expect(loaded).toEqual(["@opentelemetry/api"]);
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(pkg.dependencies["@opentelemetry/api"]).toBeUndefined();
    expect(pkg.peerDependenciesMeta["@opentelemetry/api"]).toEqual({ optional: true });
  });

  it("exports the fixed public names", () => {
    for (const name of [
      "createTokenManager",
      "legacyLogin",
      "apiTokens",
      "apiTokenMiddleware",
      "memoryStore",
    ]) {
      expect(typeof (entry as Record<string, unknown>)[name]).toBe("function");
    }
  });

  it("keeps the internal entry small: the token file's checks and the refresh window, not the manager", () => {
    const modules = [...graph(join(root, "src/internal.ts"))];
    expect(
      modules
        .filter((m) => m.startsWith(root))
        .map((m) => m.slice(root.length + 1))
        .sort(),
    ).toEqual(["src/internal.ts", "src/renewal-policy.ts", "src/token-file.ts", "src/tokens.ts"]);
  });

  it("maps the main entry and the ./node, ./store-kit, ./opentelemetry and ./internal subpaths, types first, for import and require", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    for (const [subpath, file] of [
      [".", "index"],
      ["./node", "node"],
      ["./store-kit", "store-kit"],
      ["./opentelemetry", "opentelemetry"],
      ["./internal", "internal"],
    ]) {
      const target = pkg.exports[subpath as string];
      // Each entry has a production build too, without the development-only checks: all of them, so
      // that they share one copy of the error classes there as well.
      const production = (ext: string) => ({ production: `./dist/production/${file}.${ext}` });
      expect(Object.keys(target.import)[0]).toEqual("types");
      expect(target.import).toEqual({
        types: `./dist/${file}.d.ts`,
        ...production("js"),
        default: `./dist/${file}.js`,
      });
      expect(target.require).toEqual({
        types: `./dist/${file}.d.cts`,
        ...production("cjs"),
        default: `./dist/${file}.cjs`,
      });
    }
  });

  it("types tokens from the generated client and fits the client's middleware", () => {
    expectTypeOf<TokenSet>().toExtend<TokenResponse>();
    expectTypeOf<TokenSet["expiresAt"]>().toEqualTypeOf<number>();
    expectTypeOf<Session["accountIds"]>().toEqualTypeOf<string[]>();
    expectTypeOf<TokenManager["middleware"]>().toEqualTypeOf<Middleware>();
    expectTypeOf<Parameters<Client<MainPaths>["use"]>[0]>().toEqualTypeOf<Middleware>();
    expectTypeOf(createClient).returns.toHaveProperty("use");
    expectTypeOf<TokenManager["fetch"]>().toExtend<(input: Request) => Promise<Response>>();
  });
});
