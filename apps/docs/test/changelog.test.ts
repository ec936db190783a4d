// The reference's Changelog section: the released versions of the spec's CHANGELOG.md, in its order,
// nested one heading level down; a line that says so before the first release.
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ES modules without declarations
import { changelogSection, presentable } from "../scripts/present.mjs";

const CHANGELOG = `# @engage-voice/spec

## 1.1.0

### Minor Changes

- \`GET /voice/api/v1/admin/users\`: \`flatten\` is documented.

## 1.0.0

### Major Changes

The first release.
`;

describe("changelogSection", () => {
  it("holds every released version, newest first, under a Changelog heading", () => {
    const section: string = changelogSection(CHANGELOG);
    expect(section.startsWith("## Changelog\n")).toBe(true);
    expect(section.indexOf("### 1.1.0")).toBeGreaterThan(0);
    expect(section.indexOf("### 1.0.0")).toBeGreaterThan(section.indexOf("### 1.1.0"));
    expect(section).toContain("#### Minor Changes");
    expect(section).toContain("- `GET /voice/api/v1/admin/users`: `flatten` is documented.");
    expect(section).not.toContain("# @engage-voice/spec");
  });

  it("says that nothing is released when the changelog has no version", () => {
    expect(changelogSection("# @engage-voice/spec\n")).toContain(
      "No version of the document has been released yet.",
    );
  });

  it("ends the reference's introduction", () => {
    const document = { info: { description: "Intro." }, servers: [], paths: {} };
    const shown = presentable(document, { changelog: CHANGELOG });
    expect(shown.info.description).toMatch(
      /^Intro\.\n\n## Changelog\n[\s\S]*### 1\.0\.0\n\n#### Major Changes\n\nThe first release\.\n$/,
    );
  });
});
