// `info.version` of a YAML document is the package's version: the bundle stamps the built document,
// and a release (`release:record`, after `changeset version`) stamps the hand-written source too, so
// the two never name different releases.

/** `text` (YAML with a top-level `info:` block) with `info.version` set to `version`. */
export function withInfoVersion(text, version) {
  const stamped = text.replace(/^(info:\n(?:[ ]{2}.*\n)*?[ ]{2}version:)[^\n]*$/m, `$1 ${version}`);
  if (stamped === text && !text.includes(`version: ${version}`)) {
    throw new Error("info.version not found in the YAML document");
  }
  return stamped;
}
