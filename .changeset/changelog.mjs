// The changelog formatter of `changeset version` (config.json's "changelog"): each changeset's text
// as its author wrote it for users, with no commit hash, and no "Updated dependencies" lines, since
// a release of a dependency has its own notes. A one-paragraph changeset is a bullet; a longer one
// (paragraphs, lists, code) is kept as its own block.

/** The changelog entry of one changeset. */
export function releaseLine(summary) {
  const text = summary.trim();
  if (!/\n\s*\n|^\s*([-*]|\d+\.|```)/m.test(text)) {
    return `- ${text.split("\n").join("\n  ")}`;
  }
  return `\n\n${text}\n\n`;
}

export default {
  getReleaseLine: async (changeset) => releaseLine(changeset.summary),
  getDependencyReleaseLine: async () => "",
};
