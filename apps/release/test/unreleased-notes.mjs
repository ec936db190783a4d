// The rule for the notes of a package that was never released (version 0.0.0): its first release is
// described by one changeset, `.changeset/first-release-<name>.md`, written as what that release
// offers. A second changeset would put development history into the 1.0.0 entry (an "upgrade" from
// an option no user ever had), so every other pending changeset that names it is to be folded in.
// notes.test.mjs holds the checkout to it, and .changeset/README.md points here.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Wording that speaks of a change from an earlier state, which a first release has not got. Matched
 * against the prose only: code (fenced blocks, inline spans) is left out, so an install or upgrade
 * command in a recipe does not count.
 */
export const CHANGE_WORDING = [
  /\bno longer\b/i,
  /\b(?:is|are) gone\b/i,
  /\bupgrad(?:e|es|ed|ing)\b/i,
  /\bmigrat(?:e|es|ed|ing|ion)\b/i,
  /\b(?:previously|formerly)\b/i,
  /\bnow\b/i,
  /\bbefore,/i,
];

const UNRELEASED = "0.0.0";

/** The file a package's first release is described in: `first-release-<name without scope>.md`. */
export function firstReleaseFile(packageName) {
  return `first-release-${packageName.split("/").pop()}.md`;
}

/**
 * One changeset's releases and summary. Front matter that is not `"<package>": <bump>` lines fails
 * here, so a changeset this reader misunderstands cannot slip past the rule.
 */
export function parseChangeset(file, text) {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match) {
    throw new Error(`.changeset/${file} has no front matter (---, "<package>": <bump> lines, ---)`);
  }
  const releases = [];
  for (const line of match[1].split(/\r?\n/)) {
    if (line.trim() === "") {
      continue;
    }
    const release = /^\s*(["']?)([^"':\s]+)\1\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
    if (!release) {
      throw new Error(
        `.changeset/${file}: front matter line ${JSON.stringify(line)} is not "<package>": <bump>`,
      );
    }
    releases.push(release[2]);
  }
  return { file, releases, summary: match[2].trim() };
}

/** Every pending changeset of `<root>/.changeset`, as `changeset version` reads them. */
export async function pendingChangesets(root) {
  const dir = join(root, ".changeset");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".md") && f !== "README.md").sort();
  return Promise.all(files.map(async (f) => parseChangeset(f, await readFile(join(dir, f), "utf8"))));
}

/** The first phrase of `CHANGE_WORDING` in the prose of `markdown`, or undefined. */
export function changeWordingIn(markdown) {
  const prose = markdown.replace(/```[\s\S]*?```/g, " ").replace(/`[^`]*`/g, " ");
  for (const pattern of CHANGE_WORDING) {
    const found = pattern.exec(prose);
    if (found) {
      return found[0];
    }
  }
  return undefined;
}

/**
 * What breaks the rule, one message per fix: `packages` are `{ name, manifest: { version } }`,
 * `changesets` what `pendingChangesets` answers.
 */
export function unreleasedNoteProblems(packages, changesets) {
  const problems = [];
  for (const { name, manifest } of packages) {
    if (manifest.version !== UNRELEASED) {
      continue;
    }
    const first = firstReleaseFile(name);
    const naming = changesets.filter((c) => c.releases.includes(name));
    if (!naming.some((c) => c.file === first)) {
      problems.push(
        `${name} has never been released, and no .changeset/${first} names it: write one that says what its first release offers`,
      );
    }
    for (const { file, summary } of naming) {
      if (file !== first) {
        problems.push(
          `fold .changeset/${file} into .changeset/${first}: nothing has been released yet, so there is nothing to upgrade from`,
        );
      }
      const wording = changeWordingIn(summary);
      if (wording) {
        problems.push(
          `.changeset/${file} says "${wording}" of ${name}, which has never been released: describe what the first release offers, not a change from an unreleased state`,
        );
      }
    }
  }
  return problems;
}
