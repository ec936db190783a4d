import { defineLocalCommand } from "../../command.js";
import { SHELLS } from "./shells.js";

export const completion = defineLocalCommand({
  name: "completion",
  local: true,
  summary: "print the shell completion script for bash, zsh or fish",
  args: SHELLS.join("|"),
  positionals: 1,
  choices: SHELLS,
  options: {},
  details: [
    "The script completes the commands, their options and --help topics. It holds them all and runs",
    "nothing at completion time: generate it again after an upgrade.",
  ],
  examples: [
    { line: "source <(engage-voice completion bash)", says: "in this shell; add it to ~/.bashrc to keep it" },
    {
      line: "engage-voice completion bash > ~/.local/share/bash-completion/completions/engage-voice",
      says: "bash, for every new shell",
    },
    {
      line: `engage-voice completion zsh > "\${fpath[1]}/_engage_voice"`,
      says: "zsh: a folder of $fpath, then a new shell (compinit)",
    },
    { line: "engage-voice completion fish > ~/.config/fish/completions/engage-voice.fish" },
  ],
  run: async (ctx) => (await import("./run.js")).completionScript(ctx),
});
