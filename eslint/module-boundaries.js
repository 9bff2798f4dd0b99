// ESLint rule: the micro-frontend boundaries of docs/architecture.md (modules/<name>/).
// 1. Outside modules/<name>/, only its public faces may be imported: index.ts (client-safe)
//    and index.server.ts (server-only).
// 2. A module may depend only on the modules its entry in `allow` names. The allow-list is
//    acyclic (checked when the rule starts), so module import cycles cannot exist.
import path from "node:path";

const FACES = new Set(["index", "index.server"]);

function moduleOf(file, root) {
  const rel = path.relative(path.join(root, "modules"), file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
  const [name, ...rest] = rel.split(path.sep);
  return { name, rest: rest.join("/") };
}

function assertAcyclic(allow) {
  const state = new Map();
  const visit = (m, trail) => {
    if (state.get(m) === "done") return;
    if (state.get(m) === "active") throw new Error(`module-boundaries: cycle in allow-list: ${[...trail, m].join(" → ")}`);
    state.set(m, "active");
    for (const dep of allow[m] ?? []) visit(dep, [...trail, m]);
    state.set(m, "done");
  };
  for (const m of Object.keys(allow)) visit(m, []);
}

export default {
  meta: {
    type: "problem",
    docs: { description: "Modules are reached only through index.ts / index.server.ts, along an acyclic allow-list" },
    schema: [{ type: "object", properties: { root: { type: "string" }, allow: { type: "object" } }, additionalProperties: false }],
  },
  create(context) {
    const { root, allow } = context.options[0];
    assertAcyclic(allow);
    const file = context.filename;
    const from = moduleOf(file, root);

    function check(node, source) {
      if (typeof source !== "string") return;
      let target;
      if (source.startsWith("~/")) target = path.join(root, source.slice(2));
      else if (source.startsWith(".")) target = path.resolve(path.dirname(file), source);
      else return;
      const to = moduleOf(target, root);
      if (!to || (from && from.name === to.name)) return;
      const face = to.rest.replace(/\.(tsx?|jsx?)$/, "");
      if (!FACES.has(face)) {
        context.report({
          node,
          message: `Import modules/${to.name} through its index.ts or index.server.ts, not "${source}"`,
        });
        return;
      }
      if (from && !(allow[from.name] ?? []).includes(to.name)) {
        context.report({
          node,
          message: `modules/${from.name} may not depend on modules/${to.name} (see the allow-list in eslint.config.js and docs/architecture.md "Modules")`,
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
