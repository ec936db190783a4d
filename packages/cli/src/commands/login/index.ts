import { defineCommand } from "../../command.js";
import { ENV } from "../../env.js";
import { loginOptions } from "./options.js";

export const login = defineCommand({
  name: "login",
  summary: "exchange a RingCentral access token for a session, kept in the profile",
  positionals: 0,
  options: loginOptions,
  details: [
    "The RingCentral (parent-platform) access token is never taken as a flag, which would land in",
    `shell history: pipe it with --rc-token-stdin, set ${ENV.parentToken}, or type it at the prompt.`,
    "The session (access and refresh token) is kept in the config directory, mode 0600, per profile",
    "and host; the profile also remembers --base-url and --legacy-base-url.",
  ],
  examples: [
    { line: `printf '%s' "$RC_ACCESS_TOKEN" | engage-voice login --rc-token-stdin` },
    { line: "engage-voice login", says: "asks for the token, without echoing it" },
    {
      line: "engage-voice login --profile staging --base-url https://ringcx.ringcentral.com --rc-token-stdin < token.txt",
      says: "another profile on another host",
    },
  ],
  run: async (ctx) => (await import("./run.js")).login(ctx),
});
