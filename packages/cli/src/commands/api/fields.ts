// The fields of `api`, as gh api reads them: `-f key=value` a string as written, `-F key=value` typed
// (true, false, null and integers as JSON, `@file` a file's text, `@-` stdin's), `key[sub]=` and
// `key[]=` nested in a JSON body. No value is ever quoted in a message: a field may hold a secret.
import { usageError } from "../../exit.js";

export interface Field {
  /** As written: `name`, `user[name]`, `roles[]`. */
  key: string;
  value: unknown;
}

/** Where a typed field's `@file` and `@-` come from (the run reads them; tests give strings). */
export interface FieldSources {
  file(path: string): Promise<string>;
  stdin(): Promise<string>;
}

const INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** `key=value` split at its first `=`; a key alone is `key[]` (an empty list) or a usage error. */
function split(text: string, flag: string): [key: string, value: string | undefined] {
  const at = text.indexOf("=");
  const key = at === -1 ? text : text.slice(0, at);
  if (key === "" || (at === -1 && !key.endsWith("[]"))) {
    throw usageError(`${flag} takes key=value (or key[] for an empty list): one of them has no key or no =`);
  }
  return [key, at === -1 ? undefined : text.slice(at + 1)];
}

/** A `-f` field: the value is the string as written. */
export function rawField(text: string): Field {
  const [key, value] = split(text, "-f/--raw-field");
  return { key, value: value ?? [] };
}

/** A `-F` field: `true`, `false`, `null` and integers as JSON; `@path` a file's text, `@-` stdin's. */
export async function typedField(text: string, sources: FieldSources): Promise<Field> {
  const [key, value] = split(text, "-F/--field");
  if (value === undefined) {
    return { key, value: [] };
  }
  if (value === "true" || value === "false" || value === "null") {
    return { key, value: JSON.parse(value) };
  }
  if (INTEGER.test(value) && Number.isSafeInteger(Number(value))) {
    return { key, value: Number(value) };
  }
  if (value.startsWith("@")) {
    return { key, value: value === "@-" ? await sources.stdin() : await sources.file(value.slice(1)) };
  }
  return { key, value };
}

/** Whether a field reads stdin (`-F key=@-`). */
export const readsStdin = (text: string) => text.slice(text.indexOf("=") + 1) === "@-" && text.includes("=");

/** `user[name][first]` → `["user", "name", "first"]`; `roles[]` → `["roles", ""]`; else the key whole. */
function pathOf(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match?.[2]) {
    return [key];
  }
  return [match[1] as string, ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string)];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields as a JSON object, nested as gh api nests them: `user[name]=x` is `{user: {name: "x"}}`,
 * each `roles[]=x` adds to a list, and `roles[]` alone is an empty list.
 */
export function bodyOf(fields: readonly Field[]): Json {
  const body: Json = {};
  for (const { key, value } of fields) {
    const path = pathOf(key);
    let at: Json | unknown[] = body;
    for (const [i, name] of path.entries()) {
      const last = i === path.length - 1;
      const nextIsList = path[i + 1] === "";
      if (Array.isArray(at)) {
        // `a[][b]` would be a list of objects, which gh api does not make either: a list holds values.
        if (name !== "" || !last) {
          throw usageError(
            `A field's key ${JSON.stringify(key)} nests inside a list: only key[]=value adds to one`,
          );
        }
        if (!(Array.isArray(value) && value.length === 0)) {
          at.push(value);
        }
        break;
      }
      if (name === "") {
        throw usageError(`A field's key ${JSON.stringify(key)} has an empty name`);
      }
      if (last) {
        if (name in at) {
          throw usageError(`The field ${JSON.stringify(key)} is given twice: give each key once`);
        }
        at[name] = value;
        break;
      }
      const existing: unknown = at[name];
      const fresh = nextIsList ? [] : {};
      if (existing === undefined) {
        at[name] = fresh;
      } else if (nextIsList ? !Array.isArray(existing) : !isObject(existing)) {
        throw usageError(
          `The field ${JSON.stringify(key)} is given both as a value and as a list or an object`,
        );
      }
      at = at[name] as Json | unknown[];
    }
  }
  return body;
}

/** The fields as query parameters, each key as written: `null` an empty value, others as text. */
export function queryOf(fields: readonly Field[], search: URLSearchParams): void {
  for (const { key, value } of fields) {
    for (const one of Array.isArray(value) ? value : [value]) {
      search.append(key, one === null ? "" : typeof one === "string" ? one : JSON.stringify(one));
    }
  }
}
