// ESLint rule: no file imports a file that imports it back, by any chain (docs/architecture.md
// "No cycles"). module-boundaries keeps the modules acyclic; this keeps the files inside them so,
// where a cycle would otherwise hide (a.server.ts ↔ b.server.ts in one module). Type-only imports
// count too: they are erased at build, but a circle of types is still two files that cannot be
// understood, or moved, one without the other.
import path from "node:path";
import { pathBetween, resolveImport } from "./import-graph.js";

export default {
  meta: {
    type: "problem",
    docs: { description: "No file-level import cycles" },
    schema: [{ type: "object", properties: { root: { type: "string" } }, additionalProperties: false }],
  },
  create(context) {
    const { root } = context.options[0];
    const file = context.filename;

    function check(node, source) {
      if (typeof source !== "string") return;
      const target = resolveImport(file, source, root);
      if (!target) return;
      const back = pathBetween(target, file, root, { withTypes: true });
      if (!back) return;
      const chain = [file, ...back].map((f) => path.relative(root, f)).join(" → ");
      context.report({ node, message: `Import cycle: ${chain}. Move what both need into a file of its own (docs/architecture.md "No cycles")` });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
