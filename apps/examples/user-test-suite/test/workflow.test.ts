// The CI workflow runs what the README says, on the Node versions it says, and between its jobs every
// vitest project that `pnpm test` runs: the README, the workflow and package.json cannot drift apart.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import config from "../vitest.config.js";

const here = (file: string) => new URL(`../${file}`, import.meta.url);
const readme = await readFile(here("README.md"), "utf8");
const manifest: { scripts: Record<string, string> } = JSON.parse(
  await readFile(here("package.json"), "utf8"),
);

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Job = { strategy?: { matrix: Record<string, unknown[]> }; steps: Step[] };
const workflow: { on: unknown; jobs: Record<string, Job> } = parse(
  await readFile(here(".github/workflows/test.yml"), "utf8"),
);

/** The lines of the README's sh block between `<!-- name:start -->` and `<!-- name:end -->`. */
function block(name: string): string[] {
  const body = readme.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0] ?? "";
  const lines = /```sh\n([\s\S]*?)```/.exec(body)?.[1]?.trim().split("\n");
  if (!lines) {
    throw new Error(
      `README.md has no \`\`\`sh block between <!-- ${name}:start --> and <!-- ${name}:end -->`,
    );
  }
  return lines;
}

const job = (name: string): Job => {
  const found = workflow.jobs[name];
  if (!found) {
    throw new Error(`the workflow has no job ${name}`);
  }
  return found;
};
const runs = (name: string) => job(name).steps.flatMap((step) => (step.run ? [step.run.trim()] : []));
const nodeVersion = (name: string) =>
  job(name).steps.find((step) => step.uses?.startsWith("actions/setup-node@"))?.with?.["node-version"];

/**
 * Whether the newest release of Node `major` meets the `engines.node` of the installed `tool`: an
 * alternative `^M.m.p` of the same major, or `>=M.m.p` of that major or an older one.
 */
async function takesNode(tool: string, major: number): Promise<boolean> {
  const path = createRequire(import.meta.url).resolve(`${tool}/package.json`);
  const range: string = JSON.parse(await readFile(path, "utf8")).engines.node;
  return range.split("||").some((alternative) => {
    const [, operator, least] = /^\s*(\^|>=)(\d+)\./.exec(alternative) ?? [];
    return operator === "^" ? Number(least) === major : Number(least) <= major;
  });
}

/** The vitest projects a `pnpm run <script>` line runs: all of them without `--project`. */
function projectsOf(line: string): string[] {
  const script = manifest.scripts[line.replace(/^pnpm (run )?/, "")];
  if (script === undefined) {
    throw new Error(`package.json has no script for \`${line}\``);
  }
  const vitest = /vitest run(.*)$/.exec(script)?.[1] ?? "";
  const named = [...vitest.matchAll(/--project (\S+)/g)].map((match) => match[1] as string);
  return named.length > 0 ? named : allProjects;
}
const allProjects = (config.test?.projects ?? []).map((project) => {
  const name = typeof project === "object" && "test" in project ? project.test?.name : undefined;
  return typeof name === "string" ? name : String(name);
});

describe("the CI workflow", () => {
  it("runs on every push and pull request", () => {
    expect(workflow.on).toEqual(["push", "pull_request"]);
  });

  it("runs the suite job's commands exactly as the README gives them, on Node 22 and 24", () => {
    expect(runs("suite")).toEqual(block("ci-suite"));
    expect(job("suite").strategy?.matrix.node).toEqual([22, 24]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(nodeVersion("suite")).toBe("${{ matrix.node }}");
    expect(readme).toContain("`suite`, on Node 22 and 24:");
  });

  it("runs each job on a Node that its test tools declare they run on", async () => {
    const suite = job("suite").strategy?.matrix.node as number[];
    for (const tool of ["vitest", "msw"]) {
      for (const major of suite) {
        expect(await takesNode(tool, major), `${tool} on Node ${major}`).toBe(true);
      }
    }
    expect(await takesNode("@stoplight/prism-cli", nodeVersion("contract") as number)).toBe(true);
    // and the oldest Node our packages run on is one they do not: hence no Node 20 leg
    expect(await takesNode("vitest", 20)).toBe(false);
  });

  it("runs the contract job's commands exactly as the README gives them, on Node 24", () => {
    expect(runs("contract")).toEqual(block("ci-contract"));
    expect(nodeVersion("contract")).toBe(24);
    expect(readme).toContain("`contract`, on Node 24");
  });

  it("has no job the README does not describe", () => {
    expect(Object.keys(workflow.jobs).sort()).toEqual(["contract", "suite"]);
  });

  it("runs, between its jobs, every vitest project that the README's `pnpm test` runs", () => {
    const local = block("run").filter((line) => line.startsWith("pnpm test") || line.startsWith("pnpm run"));
    expect(local).toEqual(["pnpm test"]);
    expect(allProjects.sort()).toEqual(["contract", "suite"]);
    expect(projectsOf("pnpm test").sort()).toEqual(allProjects);
    const inCi = [...runs("suite"), ...runs("contract")].filter((line) => line.startsWith("pnpm run "));
    expect(inCi.flatMap(projectsOf).sort()).toEqual(allProjects);
  });

  it("type-checks wherever the suite runs, as `pnpm test` does", () => {
    expect(manifest.scripts.test).toMatch(/^tsc -p tsconfig\.json && /);
    expect(manifest.scripts["test:suite"]).toMatch(/^tsc -p tsconfig\.json && /);
  });
});
