// The project's file-level import graph, read with TypeScript's parser (already a dependency), for
// the no-import-cycle rule. Files are re-read only when their modification time changes, so an
// editor's long-lived ESLint keeps the graph fresh and a whole-tree run parses each file once.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx"];
const cache = new Map(); // file → { mtime, edges: [{ source, target, typeOnly }] }

/** The file an import names, or null for a package or a file outside the project. */
export function resolveImport(from, source, root) {
  let base;
  if (source.startsWith("~/")) base = path.join(root, source.slice(2));
  else if (source.startsWith(".")) base = path.resolve(path.dirname(from), source);
  else return null;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  return null;
}

/** Whether an import declaration brings only types (erased at build, so no load-order edge). */
function importIsTypeOnly(node) {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

function readEdges(file, root) {
  const text = fs.readFileSync(file, "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found = [];
  for (const node of sf.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ source: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ source: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    }
  }
  // lazy imports still make one file depend on the other
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push({ source: m[1], typeOnly: false });
  return found.flatMap((e) => {
    const target = resolveImport(file, e.source, root);
    return target ? [{ ...e, target }] : [];
  });
}

/** The project files `file` imports (type-only imports left out unless `withTypes`). */
export function importsOf(file, root, { withTypes = false } = {}) {
  const mtime = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  let entry = cache.get(file);
  if (!entry || entry.mtime !== mtime) {
    entry = { mtime, edges: mtime < 0 ? [] : readEdges(file, root) };
    cache.set(file, entry);
  }
  return entry.edges.filter((e) => withTypes || !e.typeOnly);
}

/** A shortest chain of imports from `start` back to `goal`, or null when there is none. */
export function pathBetween(start, goal, root, options) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === goal) {
      const chain = [];
      for (let f = file; f !== null; f = previous.get(f)) chain.unshift(f);
      return chain;
    }
    for (const { target } of importsOf(file, root, options)) {
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return null;
}
