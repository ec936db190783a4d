// What every public package.json must say so that a registry page, `npm repo`, `npm bugs` and a
// provenance statement point users to the right place, and a publish cannot go out private or
// without its build. The repository is named once, in the root package.json; each package's
// fields are derived from it and its folder.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository's web address, from the root manifest's `repository.url` (`git+https://….git`). */
export function repositoryWeb(rootManifest) {
  const url = rootManifest.repository?.url;
  if (typeof url !== "string") {
    throw new Error(
      "the root package.json has no repository.url: it is where every package's links come from",
    );
  }
  return url.replace(/^git\+/, "").replace(/\.git$/, "");
}

/** Whether a manifest ships JavaScript (an export or a bin), so that `engines` means something. */
function shipsCode(manifest) {
  return manifest.bin !== undefined || /\.c?js"/.test(JSON.stringify(manifest.exports ?? {}));
}

/** Whether a manifest is a typed library (not data or a command line): bundlers may tree-shake it. */
function isLibrary(manifest) {
  return typeof manifest.types === "string";
}

/** The README's problems: an install line naming the package, and for a library a usage example. */
function readmeProblems(root, dir, manifest) {
  const file = join(root, dir, "README.md");
  if (!existsSync(file)) {
    return ["README.md is missing (npm shows it on the package's page)"];
  }
  const readme = readFileSync(file, "utf8");
  const problems = [];
  const install = new RegExp(`(npm install|npm i|pnpm add|yarn add|bun add|npx) [^\\n]*${manifest.name}\\b`);
  if (!install.test(readme)) {
    problems.push(`README.md has no install command for ${manifest.name}`);
  }
  if (isLibrary(manifest) && !/```(ts|js|typescript)\n[\s\S]*?from "@engage-voice\//.test(readme)) {
    problems.push("README.md has no usage example (a ts or js block importing the package)");
  }
  return problems;
}

/** Whether git tracks `file` (a path from the repository root). */
function tracked(root, file) {
  try {
    execFileSync("git", ["ls-files", "--error-unmatch", file], { cwd: root, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The problems of one public package's manifest, each naming the field and what it must hold;
 * an empty list when it is complete.
 */
export function metadataProblems({ root, rootManifest, dir, manifest, dependedOn = false }) {
  const web = repositoryWeb(rootManifest);
  const problems = [];
  const want = (ok, message) => {
    if (!ok) {
      problems.push(`${manifest.name} (${dir}/package.json): ${message}`);
    }
  };
  want(typeof manifest.description === "string" && manifest.description.length > 0, "description is missing");
  want(typeof manifest.license === "string", "license is missing");
  want(
    manifest.repository?.type === "git" &&
      manifest.repository.url === rootManifest.repository.url &&
      manifest.repository.directory === dir,
    `repository must be { "type": "git", "url": "${rootManifest.repository.url}", "directory": "${dir}" }`,
  );
  want(
    manifest.homepage === `${web}/tree/main/${dir}#readme`,
    `homepage must be "${web}/tree/main/${dir}#readme"`,
  );
  want(manifest.bugs?.url === `${web}/issues`, `bugs must be { "url": "${web}/issues" }`);
  want(
    manifest.publishConfig?.access === "public",
    'publishConfig.access must be "public" (scoped packages publish private otherwise)',
  );
  want(
    manifest.publishConfig?.provenance === true,
    "publishConfig.provenance must be true (the release publishes with a signed provenance statement)",
  );
  want(Array.isArray(manifest.keywords) && manifest.keywords.length > 0, "keywords are missing");
  want(
    !shipsCode(manifest) || typeof manifest.engines?.node === "string",
    "engines.node is missing (the package ships code)",
  );
  want(
    Array.isArray(manifest.files) && manifest.files.includes("CHANGELOG.md"),
    'files must list "CHANGELOG.md"',
  );
  want(
    existsSync(join(root, dir, "CHANGELOG.md")),
    "CHANGELOG.md is missing (changeset version writes the release notes there)",
  );
  want(
    !isLibrary(manifest) || manifest.sideEffects === false,
    "sideEffects must be false (a library: bundlers drop what is not imported)",
  );
  want(existsSync(join(root, dir, "LICENSE")), "LICENSE is missing (npm publishes the package folder's)");
  for (const problem of readmeProblems(root, dir, manifest)) {
    want(false, problem);
  }
  want(
    typeof manifest.scripts?.prepack === "string",
    "scripts.prepack is missing: it must build the package or refuse to pack it unbuilt (scripts/check-packable.mjs)",
  );
  const bins = typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {});
  for (const bin of dependedOn ? bins : []) {
    // pnpm links the bins of a workspace package into the packages that depend on it at install,
    // before any build: a bin in dist/ makes every install warn `Failed to create bin ... ENOENT`.
    want(
      tracked(root, join(dir, bin)),
      `bin ${bin} must be a file committed to the repository, not build output (other workspace packages depend on ${manifest.name})`,
    );
  }
  return problems;
}
