// The path map of openapi.yaml against spec/paths/: the bundle holds only the paths openapi.yaml
// lists, so a path file it does not list would be left out without a word from redocly.
//   node scripts/path-map.mjs   exits 1 with each problem and its fix (run by `lint-spec`)
import { readdir, readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

/** The file of a path, as spec/paths/README.md names it: `/a/{b}/c` → `a_{b}_c.yaml`. */
export const pathFile = (path) => `${path.slice(1).replaceAll("/", "_")}.yaml`;

/** The `paths:` map of openapi.yaml's text: each path with its `$ref`, or `undefined` when inline. */
export function pathMapOf(source) {
  const block = source.match(/^paths:\n((?:(?: {2}.*)?\n)*)/m)?.[1] ?? "";
  const entries = [];
  for (const line of block.split("\n")) {
    const key = line.match(/^ {2}(\/\S*?):\s*$/)?.[1];
    const ref = line.match(/^ {4}\$ref:\s*["']?([^"'\s]+)["']?\s*$/)?.[1];
    if (key !== undefined) {
      entries.push({ path: key, ref: undefined });
    } else if (ref !== undefined && entries.length > 0) {
      entries.at(-1).ref = ref;
    }
  }
  return entries;
}

/** Every disagreement between openapi.yaml's path map and the files of spec/paths/, each with its fix. */
export function pathMapProblems(source, files) {
  const problems = [];
  const entries = pathMapOf(source);
  const referenced = new Set();
  for (const { path, ref } of entries) {
    const expected = `paths/${pathFile(path)}`;
    if (ref === undefined) {
      problems.push(
        `${path}: its path item is inline in openapi.yaml; move it to spec/${expected} and write \`$ref: ${expected}\``,
      );
      continue;
    }
    referenced.add(ref);
    if (!files.includes(ref.replace(/^paths\//, ""))) {
      problems.push(
        `${path}: openapi.yaml refers to spec/${ref}, which does not exist; create it or remove the entry`,
      );
    } else if (ref !== expected) {
      problems.push(`${path}: its file is spec/${ref}; rename it spec/${expected} (spec/paths/README.md)`);
    }
  }
  for (const file of files) {
    if (file.endsWith(".yaml") && !referenced.has(`paths/${file}`)) {
      problems.push(
        `spec/paths/${file} is not in openapi.yaml's paths, so the bundle leaves it out; add its path there with \`$ref: paths/${file}\``,
      );
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const source = await readFile(new URL("../openapi.yaml", import.meta.url), "utf8");
  const files = await readdir(new URL("../paths/", import.meta.url));
  const problems = pathMapProblems(source, files);
  if (problems.length > 0) {
    console.error(`spec/openapi.yaml's paths and spec/paths/ disagree:\n  ${problems.join("\n  ")}`);
    process.exitCode = 1;
  }
}
