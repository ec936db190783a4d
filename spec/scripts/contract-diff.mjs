// The breaking changes between two bundled OpenAPI 3.1 documents, for the release gate. A breaking
// change is one that can make a working client fail: something it calls or reads removed or
// narrowed, something it must send added. The rules follow oasdiff's catalogue, on the parts of the
// document this API uses (operations, parameters, request bodies, responses, JSON schemas).

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

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

/** The JSON types a schema admits; `undefined` when it does not say (any type). */
function typesOf(schema, follow) {
  if (schema.type !== undefined) {
    const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
    if (types.has("number")) {
      types.add("integer");
    }
    return types;
  }
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[key])) {
      const all = new Set();
      for (const part of schema[key]) {
        const types = typesOf(follow(part) ?? {}, follow);
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

/**
 * Compares two schemas at `where`. `direction` is "request" (the client sends it: the server may
 * only accept more) or "response" (the client reads it: the server may only send less).
 */
function compareSchemas(
  oldDoc,
  newDoc,
  oldSchema,
  newSchema,
  where,
  direction,
  changes,
  depth = 0,
  seen = new Set(),
) {
  // A recursive schema (a user's children are users) is compared once per pair of references.
  const pair = `${oldSchema?.$ref ?? ""}|${newSchema?.$ref ?? ""}|${direction}`;
  if (oldSchema?.$ref && newSchema?.$ref) {
    if (seen.has(pair)) {
      return;
    }
    seen = new Set(seen).add(pair);
  }
  const before = oldDoc.follow(oldSchema) ?? {};
  const after = newDoc.follow(newSchema) ?? {};
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
  if (Array.isArray(before.enum)) {
    const now = new Set(Array.isArray(after.enum) ? after.enum : []);
    const removed = Array.isArray(after.enum) ? before.enum.filter((value) => !now.has(value)) : [];
    for (const value of removed) {
      changes.push(`${where}: enum value ${JSON.stringify(value)} removed`);
    }
    if (direction === "response" && !Array.isArray(after.enum)) {
      changes.push(`${where}: enum removed (any value may now come back)`);
    }
  } else if (Array.isArray(after.enum) && direction === "request") {
    changes.push(`${where}: enum added (values narrowed)`);
  }
  if ("const" in before && JSON.stringify(before.const) !== JSON.stringify(after.const)) {
    changes.push(`${where}: const changed`);
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
    compareSchemas(oldDoc, newDoc, property, next, `${where}.${name}`, direction, changes, depth + 1, seen);
  }
  if (before.items && after.items) {
    compareSchemas(
      oldDoc,
      newDoc,
      before.items,
      after.items,
      `${where}[]`,
      direction,
      changes,
      depth + 1,
      seen,
    );
  }
}

function operations(document) {
  const list = new Map();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
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

/** Every breaking change from `oldDocument` to `newDocument`, as one line each; empty when none. */
export function breakingChanges(oldDocument, newDocument) {
  const oldDoc = { follow: resolver(oldDocument) };
  const newDoc = { follow: resolver(newDocument) };
  const changes = [];
  const before = operations(oldDocument);
  const after = operations(newDocument);
  for (const [key, old] of before) {
    const now = after.get(key);
    if (!now) {
      changes.push(`${key}: operation removed`);
      continue;
    }
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
      compareSchemas(
        oldDoc,
        newDoc,
        parameter.schema,
        next.schema,
        `${key}: parameter ${id}`,
        "request",
        changes,
      );
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
        compareSchemas(oldDoc, newDoc, media.schema, next.schema, `${key}: request body`, "request", changes);
      }
    }
    for (const [status, response] of Object.entries(old.operation.responses ?? {})) {
      const next = now.operation.responses?.[status];
      if (!next) {
        changes.push(`${key}: response ${status} removed`);
        continue;
      }
      const oldContent = oldDoc.follow(response).content ?? {};
      const newContent = newDoc.follow(next).content ?? {};
      for (const [type, media] of Object.entries(oldContent)) {
        const nextMedia = newContent[type];
        if (!nextMedia) {
          changes.push(`${key}: response ${status} ${type} removed`);
        } else {
          compareSchemas(
            oldDoc,
            newDoc,
            media.schema,
            nextMedia.schema,
            `${key}: response ${status}`,
            "response",
            changes,
          );
        }
      }
    }
  }
  return changes;
}
