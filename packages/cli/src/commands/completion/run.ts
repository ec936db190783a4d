import type { Context } from "../../context.js";
import type { Shell } from "./index.js";
import { bashScript, fishScript, zshScript } from "./scripts.js";

const SCRIPTS: Record<Shell, () => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export async function completionScript(ctx: Context): Promise<void> {
  // The parser has checked the shell against the command's choices.
  ctx.out(SCRIPTS[ctx.positionals[0] as Shell]());
}
