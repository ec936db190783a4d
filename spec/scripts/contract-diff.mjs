// The breaking changes between two bundled OpenAPI 3.1 documents, for the release gate. A breaking
// change is one that can make a working client fail: something it calls or reads removed or
// narrowed, something it must send added. The rules follow oasdiff's catalogue, on the parts of the
// document this API uses (operations, their servers, parameters, request bodies, responses and their
// headers, security, JSON schemas with their composition keywords, listed values and constraints).

import { HTTP_METHODS } from "./http-methods.mjs";

/** Follows local `$ref`s (`#/components/...`), however deep; a cycle ends as an empty schema. */
function resolver(document) {
  const follow = (value, seen = new Set()) => {
    if (!value || typeof value !== "object" || typeof value.$ref !== "string") {
      return value;
    }
    if (seen.has(value.$ref) || !value.$ref.startsWith("#/")) {
      return {};
    }
    seen.add(value.$ref);
    const target = value.$ref
      .slice(2)
      .split("/")
      .reduce((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
    return follow(target ?? {}, seen);
  };
  return follow;
}

// Bounds: a larger lower bound or a smaller upper bound admits fewer values.
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];

// Keywords beside a `$ref` that constrain nothing.
const REF_ANNOTATIONS = new Set(["$ref", "description", "summary", "title", "examples", "example"]);

/**
 * A schema with its `allOf` parts merged in (properties, required, types, other keywords), so that a
 * property of a part is compared like one of its own: removing `refreshToken` from the second part of
 * `RefreshedTokenResponse` is a property removed.
 */
function view(schema, follow, seen = new Set()) {
  // OpenAPI 3.1 (JSON Schema 2020-12) applies keywords beside a `$ref` too: they are one more part.
  if (typeof schema?.$ref === "string" && Object.keys(schema).some((key) => !REF_ANNOTATIONS.has(key))) {
    const { $ref, allOf = [], ...siblings } = schema;
    return view({ ...siblings, allOf: [{ $ref }, ...allOf] }, follow, seen);
  }
  const resolved = follow(schema) ?? {};
  if (!Array.isArray(resolved.allOf)) {
    return resolved;
  }
  const { allOf, ...merged } = resolved;
  for (const part of allOf) {
    if (part?.$ref && seen.has(part.$ref)) {
      continue;
    }
    const next = view(part, follow, part?.$ref ? new Set(seen).add(part.$ref) : seen);
    // A property that several parts define must meet each definition.
    const properties = { ...merged.properties };
    for (const [name, property] of Object.entries(next.properties ?? {})) {
      properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
    }
    merged.properties = properties;
    merged.required = [...new Set([...(merged.required ?? []), ...(next.required ?? [])])];
    if (next.type !== undefined) {
      const types = Array.isArray(next.type) ? next.type : [next.type];
      if (merged.type === undefined) {
        merged.type = types;
      } else {
        const own = new Set(Array.isArray(merged.type) ? merged.type : [merged.type]);
        merged.type = types.filter((type) => own.has(type));
      }
    }
    for (const [key, value] of Object.entries(next)) {
      if (!(key in merged)) {
        merged[key] = value;
      } else if (LOWER_BOUNDS.includes(key) && typeof value === "number") {
        merged[key] = Math.max(merged[key], value);
      } else if (UPPER_BOUNDS.includes(key) && typeof value === "number") {
        merged[key] = Math.min(merged[key], value);
      }
    }
  }
  return merged;
}

/** The JSON types a schema admits; `undefined` when it does not say (any type). */
function typesOf(schema, follow) {
  if (schema.type !== undefined) {
    const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
    if (types.has("number")) {
      types.add("integer");
    }
    // OpenAPI 3.0's spelling of a union with null.
    if (schema.nullable === true) {
      types.add("null");
    }
    return types;
  }
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[key])) {
      const all = new Set();
      for (const part of schema[key]) {
        const types = typesOf(view(part, follow), follow);
        if (!types) {
          return undefined;
        }
        for (const type of types) {
          all.add(type);
        }
      }
      return all;
    }
  }
  return undefined;
}

const subset = (a, b) => [...a].every((item) => b.has(item));
const show = (types) => (types ? [...types].sort().join("|") : "any");

// Any other value of these admits other values, so a change narrows and widens at once.
const OPAQUE = ["pattern", "multipleOf", "format"];

/**
 * How the value constraints changed from `before` to `after`: each entry says whether it narrows
 * (admits fewer values) and whether it widens (admits more).
 */
function constraintChanges(before, after) {
  const found = [];
  const text = (value) => JSON.stringify(value);
  const describe = (key, was, now) =>
    was === undefined
      ? `${key} ${text(now)} added`
      : now === undefined
        ? `${key} ${text(was)} removed`
        : `${key} changed from ${text(was)} to ${text(now)}`;
  const numeric = (value) => (typeof value === "number" ? value : undefined);
  for (const [keys, tighter] of [
    [LOWER_BOUNDS, (was, now) => now > was],
    [UPPER_BOUNDS, (was, now) => now < was],
  ]) {
    for (const key of keys) {
      const [was, now] = [numeric(before[key]), numeric(after[key])];
      if (was === now) {
        continue;
      }
      const narrows = now !== undefined && (was === undefined || tighter(was, now));
      found.push({ text: describe(key, was, now), narrows, widens: !narrows });
    }
  }
  for (const key of OPAQUE) {
    const [was, now] = [before[key], after[key]];
    if (text(was) !== text(now)) {
      found.push({ text: describe(key, was, now), narrows: now !== undefined, widens: was !== undefined });
    }
  }
  if ((before.uniqueItems === true) !== (after.uniqueItems === true)) {
    const narrows = after.uniqueItems === true;
    found.push({ text: `uniqueItems ${narrows ? "added" : "removed"}`, narrows, widens: !narrows });
  }
  if ((before.additionalProperties === false) !== (after.additionalProperties === false)) {
    const narrows = after.additionalProperties === false;
    found.push({
      text: `additionalProperties ${narrows ? "forbidden" : "allowed"}`,
      narrows,
      widens: !narrows,
    });
  }
  return found;
}

/**
 * The values a schema admits when it lists them (`enum`, `const` as a one-value enum, both as their
 * intersection), as JSON text so that object values compare by content; `undefined` when any value.
 */
function valuesOf(schema) {
  const lists = [];
  if (Array.isArray(schema.enum)) {
    lists.push(schema.enum.map((value) => JSON.stringify(value)));
  }
  if ("const" in schema) {
    lists.push([JSON.stringify(schema.const)]);
  }
  return lists.length === 0
    ? undefined
    : new Set(lists.reduce((a, b) => a.filter((value) => b.includes(value))));
}

/** The keyword that lists a schema's values, for messages. */
const valuesKeyword = (schema) => ("const" in schema && !Array.isArray(schema.enum) ? "const" : "enum");

/**
 * Listed values by direction: a request may lose no value (a client sends it), a response may gain
 * none (a client's exhaustive switch has no case for it). Gaining values in a request and losing
 * them in a response is harmless.
 */
function compareValues(before, after, where, direction, changes) {
  if ("const" in before && "const" in after && JSON.stringify(before.const) !== JSON.stringify(after.const)) {
    changes.push(
      `${where}: const changed from ${JSON.stringify(before.const)} to ${JSON.stringify(after.const)}`,
    );
    return;
  }
  const was = valuesOf(before);
  const now = valuesOf(after);
  const [from, to] = direction === "request" ? [now, was] : [was, now];
  if (!from) {
    return;
  }
  if (!to) {
    const schema = direction === "request" ? after : before;
    const values = [...from].join(", ");
    changes.push(
      direction === "request"
        ? `${where}: ${valuesKeyword(schema)} ${values} added (values narrowed)`
        : `${where}: ${valuesKeyword(schema)} ${values} removed (any value may now come back)`,
    );
    return;
  }
  for (const value of to) {
    if (!from.has(value)) {
      changes.push(
        direction === "request"
          ? `${where}: enum value ${value} removed (no longer accepted)`
          : `${where}: enum value ${value} added (may now come back)`,
      );
    }
  }
}

/** The branches of a `oneOf` or `anyOf`, or `undefined` when the schema is not a union of schemas. */
const branchesOf = (schema) => schema.oneOf ?? schema.anyOf;

/** A branch's name for matching and for messages: its `$ref`'s last part, or the types it admits. */
function branchName(branch, follow) {
  if (typeof branch?.$ref === "string") {
    return branch.$ref.split("/").pop();
  }
  return show(typesOf(view(branch, follow), follow));
}

/**
 * What stays the same through one comparison of two schemas and everything below them: the two
 * documents (`{ follow }`, to resolve their `$ref`s), the `direction` and the list the changes found
 * go to. `direction` is "request" (the client sends it: the server may only accept more) or
 * "response" (the client reads it: the server may only send less).
 *
 * @typedef {{ oldDoc: { follow: Function }, newDoc: { follow: Function }, direction: "request" | "response", changes: string[] }} Walk
 */

/**
 * Compares two schemas at `where`, `depth` levels below the schema the walk started from; `seen`
 * holds the pairs of references already being compared on the way here.
 *
 * @param {Walk} walk
 */
function compareSchemas(walk, oldSchema, newSchema, where, depth = 0, seen = new Set()) {
  const { oldDoc, newDoc, direction, changes } = walk;
  // A recursive schema (a user's children are users) is compared once per pair of references (with
  // the keywords beside them).
  const pair = JSON.stringify([oldSchema, newSchema, direction]);
  if (oldSchema?.$ref && newSchema?.$ref) {
    if (seen.has(pair)) {
      return;
    }
    seen = new Set(seen).add(pair);
  }
  const before = view(oldSchema, oldDoc.follow);
  const after = view(newSchema, newDoc.follow);
  if (depth > 12) {
    return;
  }
  const oldTypes = typesOf(before, oldDoc.follow);
  const newTypes = typesOf(after, newDoc.follow);
  // A request's types may only widen (the server accepts what clients send); a response's may only
  // narrow (clients get nothing they were not told about).
  const [from, to] = direction === "request" ? [oldTypes, newTypes] : [newTypes, oldTypes];
  if (to && (!from || !subset(from, to))) {
    changes.push(`${where}: type changed from ${show(oldTypes)} to ${show(newTypes)}`);
  }
  compareValues(before, after, where, direction, changes);
  // A client sends values the old constraints allowed, and reads values within them.
  for (const change of constraintChanges(before, after)) {
    if (direction === "request" ? change.narrows : change.widens) {
      changes.push(`${where}: ${change.text} (values ${direction === "request" ? "narrowed" : "widened"})`);
    }
  }
  if (direction === "request") {
    const required = new Set(before.required ?? []);
    for (const name of after.required ?? []) {
      if (!required.has(name)) {
        changes.push(`${where}: property ${name} made required`);
      }
    }
  } else {
    const required = new Set(after.required ?? []);
    for (const name of before.required ?? []) {
      if (!required.has(name) && before.properties?.[name]) {
        changes.push(`${where}: property ${name} no longer always present`);
      }
    }
  }
  for (const [name, property] of Object.entries(before.properties ?? {})) {
    const next = after.properties?.[name];
    if (!next) {
      if (
        direction === "response" ||
        (before.required ?? []).includes(name) ||
        after.additionalProperties === false
      ) {
        changes.push(`${where}: property ${name} removed`);
      }
      continue;
    }
    compareSchemas(walk, property, next, `${where}.${name}`, depth + 1, seen);
  }
  if (before.items && after.items) {
    compareSchemas(walk, before.items, after.items, `${where}[]`, depth + 1, seen);
  }
  compareBranches(walk, { oldSchema, newSchema, before, after }, { where, depth, seen });
}

/**
 * The branches of a `oneOf`/`anyOf`, matched by `$ref` name or by the types they admit, compared
 * pair by pair. A request may lose no branch (a client sends it); a response may gain none (a client
 * does not expect it). A plain schema on one side counts as a union of one branch. `oldSchema` and
 * `newSchema` are the schemas as written, `before` and `after` their resolved views; `where`,
 * `depth` and `seen` are those of {@link compareSchemas}.
 *
 * @param {Walk} walk
 */
function compareBranches(walk, { oldSchema, newSchema, before, after }, { where, depth, seen }) {
  const { oldDoc, newDoc, direction, changes } = walk;
  const oldBranches = branchesOf(before);
  const newBranches = branchesOf(after);
  if (!oldBranches && !newBranches) {
    return;
  }
  const olds = oldBranches ?? [oldSchema];
  const news = newBranches ?? [newSchema];
  const oldNames = olds.map((branch) => branchName(branch, oldDoc.follow));
  const newNames = news.map((branch) => branchName(branch, newDoc.follow));
  const unmatchedNew = new Set(news.keys());
  const pairs = [];
  for (const [i, name] of oldNames.entries()) {
    let j = newNames.findIndex((other, k) => other === name && unmatchedNew.has(k));
    if (j < 0 && olds.length === news.length && unmatchedNew.has(i)) {
      j = i;
    }
    if (j < 0) {
      if (direction === "request") {
        changes.push(`${where}: ${name} no longer accepted (a oneOf/anyOf branch removed)`);
      }
      continue;
    }
    unmatchedNew.delete(j);
    pairs.push([olds[i], news[j], name]);
  }
  if (direction === "response") {
    for (const j of unmatchedNew) {
      changes.push(`${where}: ${newNames[j]} may now come back (a oneOf/anyOf branch added)`);
    }
  }
  for (const [oldBranch, newBranch, name] of pairs) {
    const label = oldBranches && newBranches ? `${where}<${name}>` : where;
    compareSchemas(walk, oldBranch, newBranch, label, depth + 1, seen);
  }
}

function operations(document) {
  const list = new Map();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      if (item[method]) {
        list.set(`${method.toUpperCase()} ${path}`, { item, operation: item[method] });
      }
    }
  }
  return list;
}

function parametersOf(doc, { item, operation }) {
  const all = new Map();
  for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const resolved = doc.follow(parameter);
    all.set(`${resolved.in} ${resolved.name}`, resolved);
  }
  return all;
}

/** A response's headers by lower-case name (header names are case-insensitive), resolved. */
function headersOf(doc, response) {
  const all = new Map();
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    all.set(name.toLowerCase(), { name, header: doc.follow(header) ?? {} });
  }
  return all;
}

/** @param {Walk} walk a walk of responses */
function compareHeaders(walk, response, next, where) {
  const { oldDoc, newDoc, changes } = walk;
  const newHeaders = headersOf(newDoc, next);
  for (const [id, { name, header }] of headersOf(oldDoc, response)) {
    const now = newHeaders.get(id);
    if (!now) {
      changes.push(`${where} header ${name} removed`);
      continue;
    }
    if (header.required && !now.header.required) {
      changes.push(`${where} header ${name} no longer always present`);
    }
    compareSchemas(walk, header.schema, now.header.schema, `${where} header ${name}`);
  }
}

/**
 * An operation's security: alternatives (any one suffices), each a map of scheme name to scopes
 * (all needed). No requirement, or an empty one, means no credential.
 */
function securityOf(document, operation) {
  const requirements = operation.security ?? document.security ?? [];
  return (requirements.length === 0 ? [{}] : requirements).map(
    (requirement) => new Map(Object.entries(requirement).map(([name, scopes]) => [name, new Set(scopes)])),
  );
}

const showRequirement = (requirement) =>
  requirement.size === 0
    ? "no credential"
    : [...requirement]
        .map(([name, scopes]) => (scopes.size ? `${name}(${[...scopes].sort().join(",")})` : name))
        .sort()
        .join("+");

/** Whether a client that meets `held` also meets `needed`: every scheme and scope needed is held. */
const meets = (held, needed) =>
  [...needed].every(([name, scopes]) => held.has(name) && subset(scopes, held.get(name)));

// The fields of a security scheme that decide what a client sends, and where.
const SCHEME_FIELDS = ["type", "scheme", "in", "name", "openIdConnectUrl"];

function compareSecurity(oldDocument, newDocument, old, now, key, changes) {
  const before = securityOf(oldDocument, old.operation);
  const after = securityOf(newDocument, now.operation);
  // A client meets one old alternative; it must still meet some new one.
  for (const requirement of before) {
    if (!after.some((alternative) => meets(requirement, alternative))) {
      changes.push(
        `${key}: security ${showRequirement(requirement)} no longer accepted (now ${after.map(showRequirement).join(" or ")})`,
      );
    }
  }
  const used = new Set(before.flatMap((requirement) => [...requirement.keys()]));
  for (const name of used) {
    const was = oldDocument.components?.securitySchemes?.[name];
    const is = newDocument.components?.securitySchemes?.[name];
    const differs = SCHEME_FIELDS.filter((field) => was && is && was[field] !== is[field]);
    if (was && is && differs.length > 0) {
      changes.push(`${key}: security scheme ${name} changed (${differs.join(", ")})`);
    }
  }
}

/** The servers an operation is sent to: its own, else its path's, else the document's, else `/`. */
function serversOf(document, { item, operation }) {
  for (const list of [operation.servers, item.servers, document.servers]) {
    if (Array.isArray(list) && list.length > 0) {
      return list;
    }
  }
  return [{ url: "/" }];
}

// Stands for "any value" of a server variable that lists none: only a variable that lists none matches it.
const ANY = "\u0000";

/** The addresses a server offers: its URL with each variable's `enum` values, or any value when it lists none. */
function serverAddresses(server) {
  let addresses = [server.url];
  for (const [name, variable] of Object.entries(server.variables ?? {})) {
    const values = Array.isArray(variable.enum) ? variable.enum : [ANY];
    addresses = addresses.flatMap((address) => values.map((value) => address.replaceAll(`{${name}}`, value)));
  }
  return addresses;
}

/** A pattern of the addresses a server accepts. */
function serverPattern(server) {
  const literal = (text) => text.replace(/[.*+?^$(){}|[\]\\]/g, "\\$&");
  const source = server.url
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const variable = /^\{(.+)\}$/.exec(part) && server.variables?.[part.slice(1, -1)];
      if (!variable) {
        return literal(part);
      }
      return Array.isArray(variable.enum) ? `(?:${variable.enum.map(literal).join("|")})` : ".*";
    })
    .join("");
  return new RegExp(`^${source}$`);
}

/** Every address a client could send an operation to must still be offered. */
function compareServers(oldDocument, newDocument, old, now, key, changes) {
  const patterns = serversOf(newDocument, now).map(serverPattern);
  for (const server of serversOf(oldDocument, old)) {
    for (const address of serverAddresses(server)) {
      if (!patterns.some((pattern) => pattern.test(address))) {
        const shown = address.includes(ANY) ? `${server.url} (any value of its variables)` : address;
        changes.push(`${key}: server ${shown} removed`);
      }
    }
  }
}

/** Every breaking change from `oldDocument` to `newDocument`, as one line each; empty when none. */
export function breakingChanges(oldDocument, newDocument) {
  const oldDoc = { follow: resolver(oldDocument) };
  const newDoc = { follow: resolver(newDocument) };
  const changes = [];
  /** @type {Walk} */
  const requests = { oldDoc, newDoc, direction: "request", changes };
  /** @type {Walk} */
  const responses = { ...requests, direction: "response" };
  const before = operations(oldDocument);
  const after = operations(newDocument);
  for (const [key, old] of before) {
    const now = after.get(key);
    if (!now) {
      changes.push(`${key}: operation removed`);
      continue;
    }
    compareSecurity(oldDocument, newDocument, old, now, key, changes);
    compareServers(oldDocument, newDocument, old, now, key, changes);
    const oldParameters = parametersOf(oldDoc, old);
    const newParameters = parametersOf(newDoc, now);
    for (const [id, parameter] of oldParameters) {
      const next = newParameters.get(id);
      if (!next) {
        changes.push(`${key}: parameter ${id} removed`);
        continue;
      }
      if (next.required && !parameter.required) {
        changes.push(`${key}: parameter ${id} made required`);
      }
      compareSchemas(requests, parameter.schema, next.schema, `${key}: parameter ${id}`);
    }
    for (const [id, parameter] of newParameters) {
      if (!oldParameters.has(id) && parameter.required) {
        changes.push(`${key}: required parameter ${id} added`);
      }
    }
    const oldBody = oldDoc.follow(old.operation.requestBody);
    const newBody = newDoc.follow(now.operation.requestBody);
    if (newBody?.required && !oldBody?.required) {
      changes.push(`${key}: request body made required`);
    }
    for (const [type, media] of Object.entries(oldBody?.content ?? {})) {
      const next = newBody?.content?.[type];
      if (!next) {
        changes.push(`${key}: request body ${type} no longer accepted`);
      } else {
        compareSchemas(requests, media.schema, next.schema, `${key}: request body`);
      }
    }
    for (const [status, response] of Object.entries(old.operation.responses ?? {})) {
      const next = now.operation.responses?.[status];
      if (!next) {
        changes.push(`${key}: response ${status} removed`);
        continue;
      }
      const oldResponse = oldDoc.follow(response) ?? {};
      const newResponse = newDoc.follow(next) ?? {};
      compareHeaders(responses, oldResponse, newResponse, `${key}: response ${status}`);
      const oldContent = oldResponse.content ?? {};
      const newContent = newResponse.content ?? {};
      for (const [type, media] of Object.entries(oldContent)) {
        const nextMedia = newContent[type];
        if (!nextMedia) {
          changes.push(`${key}: response ${status} ${type} removed`);
        } else {
          compareSchemas(responses, media.schema, nextMedia.schema, `${key}: response ${status}`);
        }
      }
    }
  }
  // A change reached through several paths (a shared schema, a union and its branch) is one line.
  return [...new Set(changes)];
}
