// Writes one document per host beside the combined one, for client generators:
//   node scripts/per-host.mjs   reads dist/openapi.json, writes dist/openapi.<host>.json
//
// The combined document puts the deprecated host's operations on per-operation `servers`, which no
// common generator follows, and names each host by a server variable whose `enum` refuses a local
// address. Each per-host document holds the operations of one host only, under top-level `servers`
// with concrete URLs (the variable's addresses, its default first), so a generator's "base URL from
// the document" is right and a local URL is simply another base URL.
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { HTTP_METHODS } from "./http-methods.mjs";

/** Each host, by the server variable that names it in the combined document. */
export const HOSTS = {
  main: { variable: "base_url", title: "contact-center host" },
  legacy: { variable: "legacy_base_url", title: "deprecated login host" },
};

/** The file of a host's document, relative to the package. */
export const hostFile = (host, extension = "json") => `dist/openapi.${host}.${extension}`;

/**
 * Components renamed in the per-host documents, where a name clashes with what generators make:
 * openapi-typescript-codegen emits a runtime class `ApiError` beside the models, and made the
 * parameter component `password` a `type string = string`. The combined document keeps the names
 * that `@engage-voice/client` (its exported `ApiError` type), the sandbox and the docs read.
 */
export const RENAMED = { schemas: { ApiError: "ErrorBody" }, parameters: { password: "loginPassword" } };

/** The server an operation is sent to in the combined document (its own, its path's or the root's). */
function serverOf(document, item, operation) {
  const servers = [operation.servers, item.servers, document.servers].find((list) => list?.length);
  if (servers?.length !== 1) {
    throw new Error("each operation must have exactly one server");
  }
  return servers[0];
}

/** Which host an operation belongs to, by its server's variable. */
function hostOf(server, where) {
  const variable = /^\{(\w+)\}$/.exec(server.url)?.[1];
  const host = Object.keys(HOSTS).find((name) => HOSTS[name].variable === variable);
  if (!host) {
    throw new Error(`${where}: server ${server.url} is not one of ${Object.keys(HOSTS).join(", ")}`);
  }
  return host;
}

/** A server with one variable as concrete servers: each address the variable lists, its default first. */
function concreteServers(server) {
  const { url, variables, description, ...rest } = server;
  const [name, variable] = Object.entries(variables ?? {})[0] ?? [];
  const addresses = [
    variable.default,
    ...(variable.enum ?? []).filter((address) => address !== variable.default),
  ];
  return addresses.map((address, index) => ({
    url: url.replace(`{${name}}`, address),
    description: index === 0 ? description : `${description} (another address in use)`,
    ...rest,
  }));
}

/** Every `#/components/...` reference reachable from `roots`, followed through the components. */
function reachableComponents(document, roots) {
  const found = new Set();
  const pending = [...roots];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || typeof node !== "object") {
      continue;
    }
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/") && !found.has(node.$ref)) {
      found.add(node.$ref);
      const [, , type, name] = node.$ref.split("/");
      pending.push(document.components?.[type]?.[name]);
    }
    pending.push(...Object.values(node));
  }
  return found;
}

/** Renames the components of RENAMED in a document's text: references, and schema names in prose. */
function renameReferences(text) {
  let renamed = text;
  for (const [type, names] of Object.entries(RENAMED)) {
    for (const [from, to] of Object.entries(names)) {
      renamed = renamed.replaceAll(`"#/components/${type}/${from}"`, `"#/components/${type}/${to}"`);
      if (type === "schemas") {
        renamed = renamed.replaceAll(`\`${from}\``, `\`${to}\``);
      }
    }
  }
  return renamed;
}

/** The document of one host, from the combined document. */
export function hostDocument(document, host) {
  const paths = {};
  let server;
  const tags = new Set();
  const schemes = new Set(Object.keys(Object.assign({}, ...(document.security ?? []))));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const { servers: _pathServers, ...kept } = item;
    let used = false;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      delete kept[method];
      if (!operation) {
        continue;
      }
      const where = `${method.toUpperCase()} ${path}`;
      const own = serverOf(document, item, operation);
      if (hostOf(own, where) !== host) {
        continue;
      }
      server ??= own;
      const { servers: _operationServers, ...rest } = operation;
      kept[method] = rest;
      used = true;
      for (const tag of rest.tags ?? []) {
        tags.add(tag);
      }
      for (const requirement of rest.security ?? []) {
        for (const name of Object.keys(requirement)) {
          schemes.add(name);
        }
      }
    }
    if (used) {
      paths[path] = kept;
    }
  }
  if (!server) {
    throw new Error(`no operation on the ${host} host`);
  }
  const { title } = HOSTS[host];
  const others = Object.keys(HOSTS)
    .filter((name) => name !== host)
    .map((name) => `\`openapi.${name}.json\` (${HOSTS[name].title})`)
    .join(", ");
  const references = reachableComponents(document, [paths, document.security]);
  const components = {};
  for (const [type, entries] of Object.entries(document.components ?? {})) {
    for (const [name, value] of Object.entries(entries)) {
      const kept =
        type === "securitySchemes" ? schemes.has(name) : references.has(`#/components/${type}/${name}`);
      if (kept) {
        const newName = RENAMED[type]?.[name] ?? name;
        const renamed =
          newName !== name && typeof value.title === "string" ? { ...value, title: newName } : value;
        components[type] = { ...components[type], [newName]: renamed };
      }
    }
  }
  const result = {
    ...document,
    info: {
      ...document.info,
      title: `${document.info.title}: ${title}`,
      description: `This document holds the operations of the ${title} only, for client generators; ${others} holds the other host's and \`openapi.json\` both, as one contract.\n\n${document.info.description}`,
    },
    servers: concreteServers(server),
    tags: (document.tags ?? []).filter((tag) => tags.has(tag.name)),
    paths,
    components,
  };
  if (Array.isArray(document["x-tagGroups"])) {
    result["x-tagGroups"] = document["x-tagGroups"]
      .map((group) => ({ ...group, tags: group.tags.filter((tag) => tags.has(tag)) }))
      .filter((group) => group.tags.length > 0);
  }
  return JSON.parse(renameReferences(JSON.stringify(result)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = new URL("../", import.meta.url);
  const document = JSON.parse(await readFile(new URL("dist/openapi.json", root), "utf8"));
  for (const host of Object.keys(HOSTS)) {
    const file = hostFile(host);
    await writeFile(new URL(file, root), `${JSON.stringify(hostDocument(document, host), null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}
