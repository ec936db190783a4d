import type { LocalInvocation } from "../../command.js";
import { argumentWords, bashScript, fishScript, zshScript } from "./scripts.js";
import type { Shell } from "./shells.js";

const SCRIPTS: Record<Shell, typeof bashScript> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function completionScript(call: LocalInvocation): Promise<void> {
  // The parser has checked the shell against the command's choices.
  const script = SCRIPTS[call.positionals[0] as Shell];
  call.out(script(call.commandLine, await argumentWords(call.commandLine)));
}
