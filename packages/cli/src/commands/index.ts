// Every command of `engage-voice`, in the order of the help. The parser, the help, the completion
// scripts and the tests read this array; a command is added here and in its own folder, nowhere else.
import type { Command, CommandTable } from "../command.js";
import { accounts } from "./accounts/index.js";
import { api } from "./api/index.js";
import { apiTokensCreate } from "./api-tokens/create/index.js";
import { apiTokensDelete } from "./api-tokens/delete/index.js";
import { apiTokensList } from "./api-tokens/list/index.js";
import { apiTokensGroup } from "./api-tokens/options.js";
import { completion } from "./completion/index.js";
import { login } from "./login/index.js";
import { logout } from "./logout/index.js";
import { profiles } from "./profiles/index.js";
import { token } from "./token/index.js";
import { users } from "./users/index.js";

export const COMMANDS: readonly Command[] = [
  login,
  token,
  accounts,
  users,
  apiTokensCreate,
  apiTokensList,
  apiTokensDelete,
  api,
  logout,
  profiles,
  completion,
];

/** Words that gather commands (`api-tokens create`), with what the group is for. */
export const GROUPS: readonly { name: string; summary: string }[] = [apiTokensGroup];

/**
 * A command whose arguments go, unparsed, to the package that runs it (`@engage-voice/sandbox`, with
 * its own flags and help): listed in the help and completed, handed over by the bin.
 */
export const HANDED_OVER = {
  name: "sandbox",
  summary: "start the stateful sandbox of both hosts on 127.0.0.1 (its own flags: sandbox --help)",
} as const;

/** The whole command line: what the parser, the help and the completion scripts are drawn from. */
export const COMMAND_TABLE: CommandTable = { commands: COMMANDS, groups: GROUPS, handedOver: HANDED_OVER };
