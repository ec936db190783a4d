// The users come as a tree (`children`); the table shows it in its NAME column.

export interface TreeNode {
  children?: unknown;
}

/**
 * `lines`: drawn with box-drawing characters, for a terminal. `indent`: two spaces a level, for a
 * pipe, where a script may read the column and a font may lack the characters.
 */
export type TreeStyle = "lines" | "indent";

/** Each node in tree order with the prefix of its NAME cell. */
export function treeOrder<T extends TreeNode>(roots: readonly T[], style: TreeStyle): [T, string][] {
  const out: [T, string][] = [];
  const walk = (list: readonly T[], depth: number, rails: string) => {
    list.forEach((node, index) => {
      const last = index === list.length - 1;
      const prefix =
        style === "indent" ? "  ".repeat(depth) : depth === 0 ? "" : `${rails}${last ? "└─ " : "├─ "}`;
      out.push([node, prefix]);
      if (Array.isArray(node.children)) {
        const below = depth === 0 || style === "indent" ? rails : `${rails}${last ? "   " : "│  "}`;
        walk(node.children as T[], depth + 1, below);
      }
    });
  };
  walk(roots, 0, "");
  return out;
}
