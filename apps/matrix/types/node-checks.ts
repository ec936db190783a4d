// The Node-only subpath, typed for Node projects: the file store is a TokenStore.
import { createTokenManager, type TokenStore } from "@engage-voice/auth";
import { fileStore } from "@engage-voice/auth/node";
import { expectTypeOf } from "expect-type";

export function nodeChecks(): void {
  const store = fileStore("/var/lib/app/engage-voice-tokens.json");
  expectTypeOf(store).toEqualTypeOf<TokenStore>();
  createTokenManager({ rcAccessToken: "parent", tenant: "acme", store });
  // @ts-expect-error: the file store needs a path
  fileStore();
}
