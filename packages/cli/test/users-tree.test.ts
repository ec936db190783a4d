// The users tree in the NAME column: lines on a terminal, indentation in a pipe.
import { describe, expect, it } from "vitest";
import { treeOrder } from "../src/commands/users/tree.js";

interface Node {
  name: string;
  children?: Node[];
}

const tree: Node[] = [
  {
    name: "ada",
    children: [
      { name: "sam", children: [{ name: "rob" }, { name: "ray" }] },
      { name: "sue", children: [{ name: "tim" }] },
    ],
  },
  { name: "dee" },
];

const drawn = (style: "lines" | "indent") =>
  treeOrder(tree, style).map(([node, prefix]) => `${prefix}${node.name}`);

describe("treeOrder", () => {
  it("draws the tree with box-drawing characters, a rail for each ancestor with siblings still to come", () => {
    expect(drawn("lines")).toEqual(["ada", "├─ sam", "│  ├─ rob", "│  └─ ray", "└─ sue", "   └─ tim", "dee"]);
  });

  it("indents two spaces a level in a pipe", () => {
    expect(drawn("indent")).toEqual(["ada", "  sam", "    rob", "    ray", "  sue", "    tim", "dee"]);
  });

  it("takes children that are no list as none", () => {
    expect(treeOrder([{ children: "x" }, { children: null }], "lines").map(([, prefix]) => prefix)).toEqual([
      "",
      "",
    ]);
  });
});
