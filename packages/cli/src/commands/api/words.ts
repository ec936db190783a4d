// What completion offers after `api`: the document's methods and paths, and after a method its paths.
import { operationTable } from "@engage-voice/client";
import type { CompletionWords, Word } from "../../command.js";
import { documentPaths } from "./target.js";

export function apiWords(): CompletionWords {
  const hostName = { main: "contact-center host", legacy: "deprecated host" } as const;
  const paths = (method?: string): Word[] =>
    documentPaths()
      .map((path) => ({ path, ops: operationTable.filter((op) => op.path === path) }))
      .filter(({ ops }) => method === undefined || ops.some((op) => op.method === method))
      .map(({ path, ops }) => ({
        name: path,
        summary: `${ops.map((op) => op.method.toUpperCase()).join(", ")} (${hostName[ops[0]?.host ?? "main"]})`,
      }));
  const methods = [...new Set(operationTable.map((op) => op.method))];
  return [
    [
      "api",
      [
        ...methods.map((m) => ({ name: m.toUpperCase(), summary: `${m.toUpperCase()} <path>` })),
        ...paths("get"),
      ],
    ],
    ...methods.map((m): [string, Word[]] => [`api ${m.toUpperCase()}`, paths(m)]),
  ];
}
