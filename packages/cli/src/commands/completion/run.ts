import type { Invocation } from "../../command.js";
import type { Shell } from "./index.js";
import { bashScript, fishScript, zshScript } from "./scripts.js";

const SCRIPTS: Record<Shell, () => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function completionScript(call: Invocation): Promise<void> {
  // The parser has checked the shell against the command's choices.
  call.out(SCRIPTS[call.positionals[0] as Shell]());
}
