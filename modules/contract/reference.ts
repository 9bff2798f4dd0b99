// The developers' reference page (GET /developers): the OpenAPI document as plain, server-made
// HTML — each route with its parameters, body and answers. No script at all (the CSP allows no
// third-party one, and a reference needs none); a small inline style keeps it readable.
import type { OpenApiDocument } from "./openapi";

type Json = Record<string, unknown>;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A schema in one line: a component's name, a type, a list of what. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop()!;
  if (Array.isArray(schema.enum)) return schema.enum.map((x) => JSON.stringify(x)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map(typeOf).join(" | ");
  if (schema.type === "array") return `${typeOf(schema.items as Json)}[]`;
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>);
  // a small inline answer ({ scroll: Scroll }) reads better spelled out than as "object"
  if (schema.type === "object" && properties.length > 0 && properties.length <= 4) {
    const required = new Set((schema.required ?? []) as string[]);
    return `{ ${properties.map(([name, field]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(field)}`).join(", ")} }`;
  }
  return String(schema.type ?? "any");
}

/** An object schema's fields as rows: name, type, required, what it is. */
function fieldRows(schema: Json): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties)
    .map(([name, field]) => {
      const notes = [field.description, field.default !== undefined ? `default ${JSON.stringify(field.default)}` : ""].filter(Boolean).join("; ");
      return `<tr><th scope="row"><code>${escape(name)}</code></th><td><code>${escape(typeOf(field))}</code></td><td>${required.has(name) ? "yes" : "no"}</td><td>${escape(String(notes))}</td></tr>`;
    })
    .join("");
}

const table = (caption: string, head: string[], rows: string) =>
  `<table><caption>${escape(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`;

function operationHtml(path: string, method: string, op: Json): string {
  const id = escape(String(op.operationId));
  const params = (op.parameters ?? []) as Json[];
  const body = (op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
  const responses = Object.entries(op.responses as Record<string, Json>);
  const parts = [
    `<h3 id="${id}"><code>${method.toUpperCase()} ${escape(path)}</code></h3>`,
    `<p>${escape(String(op.summary))}. ${(op.security as unknown[]).length ? "Needs a signed-in session." : "Open to guests."}</p>`,
  ];
  if (params.length) {
    const rows = params
      .map((p) => `<tr><th scope="row"><code>${escape(String(p.name))}</code></th><td>${escape(String(p.in))}</td><td><code>${escape(typeOf(p.schema as Json))}</code></td><td>${p.required ? "yes" : "no"}</td><td>${escape(String(p.description ?? ""))}</td></tr>`)
      .join("");
    parts.push(table("Parameters", ["Name", "In", "Type", "Required", "Notes"], rows));
  }
  if (body) parts.push(table("JSON body", ["Field", "Type", "Required", "Notes"], fieldRows(body["application/json"]!.schema)));
  const answers = responses
    .map(([status, res]) => {
      const schema = (res.content as Record<string, { schema: Json }> | undefined)?.["application/json"]?.schema;
      return `<tr><th scope="row">${escape(status)}</th><td><code>${escape(typeOf(schema))}</code></td><td>${escape(String(res.description))}</td></tr>`;
    })
    .join("");
  parts.push(table("Answers", ["Status", "JSON", "When"], answers));
  return `<section aria-labelledby="${id}">${parts.join("")}</section>`;
}

function componentHtml(name: string, schema: Json): string {
  const id = `schema-${escape(name)}`;
  const body = schema.type === "object" ? table(`${name} fields`, ["Field", "Type", "Required", "Notes"], fieldRows(schema)) : `<p><code>${escape(typeOf(schema))}</code></p>`;
  return `<section aria-labelledby="${id}"><h3 id="${id}">${escape(name)}</h3>${schema.description ? `<p>${escape(String(schema.description))}</p>` : ""}${body}</section>`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#111;background:#fff}
code{font-family:ui-monospace,monospace;overflow-wrap:break-word}table{border-collapse:collapse;margin:.5rem 0 1rem;width:100%}
caption{text-align:left;font-weight:600}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #ccc;margin-top:1rem}a{color:#0645ad}:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){body{color:#e8e8ee;background:#121218}th,td{border-color:#666}section{border-color:#444}a{color:#9cc2ff}}`;

export function referencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
      const tag = (op.tags as string[])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const groups = [...byTag].map(([tag, ops]) => `<section aria-labelledby="tag-${tag}"><h2 id="tag-${tag}">${escape(tag)}</h2>${ops.join("")}</section>`);
  const components = Object.entries(document.components.schemas).map(([name, schema]) => componentHtml(name, schema as Json));
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Echo API reference</title><style>${STYLE}</style></head><body><main>
<h1>Echo API reference</h1><p>${escape(document.info.description)}</p>
<p>The machine-readable contract: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escape(document.openapi)}).</p>
<nav aria-label="Sections"><ul>${[...byTag.keys()].map((tag) => `<li><a href="#tag-${tag}">${escape(tag)}</a></li>`).join("")}<li><a href="#shapes">Shapes</a></li></ul></nav>
${groups.join("")}<section aria-labelledby="shapes"><h2 id="shapes">Shapes</h2>${components.join("")}</section></main></body></html>`;
}
