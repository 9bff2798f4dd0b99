// The developers' reference page (GET /developers): the OpenAPI document as plain, server-made
// HTML — each route with its parameters, body and answers. JSX rendered to static markup, so
// React escapes every text (no escaper of our own). No script at all (the CSP allows no
// third-party one, and a reference needs none); a small inline style keeps it readable.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { OpenApiDocument } from "./openapi";

type Json = Record<string, unknown>;

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

const yesNo = (value: unknown) => (value ? "yes" : "no");

function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col">{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** An object schema's fields as rows: name, type, required, what it is. */
function Fields({ caption, schema }: { caption: string; schema: Json }) {
  const required = new Set((schema.required ?? []) as string[]);
  return (
    <Table caption={caption} head={["Field", "Type", "Required", "Notes"]}>
      {Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, field]) => (
        <tr key={name}>
          <th scope="row"><code>{name}</code></th>
          <td><code>{typeOf(field)}</code></td>
          <td>{yesNo(required.has(name))}</td>
          <td>{[field.description, field.default !== undefined ? `default ${JSON.stringify(field.default)}` : ""].filter(Boolean).join("; ")}</td>
        </tr>
      ))}
    </Table>
  );
}

function Operation({ path, method, op }: { path: string; method: string; op: Json }) {
  const id = String(op.operationId);
  const params = (op.parameters ?? []) as Json[];
  const body = (op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}><code>{`${method.toUpperCase()} ${path}`}</code></h3>
      <p>{`${String(op.summary)}. ${(op.security as unknown[]).length ? "Needs a signed-in session." : "Open to guests."}`}</p>
      {params.length > 0 && (
        <Table caption="Parameters" head={["Name", "In", "Type", "Required", "Notes"]}>
          {params.map((p) => (
            <tr key={String(p.name)}>
              <th scope="row"><code>{String(p.name)}</code></th>
              <td>{String(p.in)}</td>
              <td><code>{typeOf(p.schema as Json)}</code></td>
              <td>{yesNo(p.required)}</td>
              <td>{String(p.description ?? "")}</td>
            </tr>
          ))}
        </Table>
      )}
      {body && <Fields caption="JSON body" schema={body["application/json"]!.schema} />}
      <Table caption="Answers" head={["Status", "JSON", "When"]}>
        {Object.entries(op.responses as Record<string, Json>).map(([status, res]) => (
          <tr key={status}>
            <th scope="row">{status}</th>
            <td><code>{typeOf((res.content as Record<string, { schema: Json }> | undefined)?.["application/json"]?.schema)}</code></td>
            <td>{String(res.description)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

function Component({ name, schema }: { name: string; schema: Json }) {
  const id = `schema-${name}`;
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{name}</h3>
      {schema.description ? <p>{String(schema.description)}</p> : null}
      {schema.type === "object" ? <Fields caption={`${name} fields`} schema={schema} /> : <p><code>{typeOf(schema)}</code></p>}
    </section>
  );
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#111;background:#fff}
code{font-family:ui-monospace,monospace;overflow-wrap:break-word}table{border-collapse:collapse;margin:.5rem 0 1rem;width:100%}
caption{text-align:left;font-weight:600}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #ccc;margin-top:1rem}a{color:#0645ad}:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){body{color:#e8e8ee;background:#121218}th,td{border-color:#666}section{border-color:#444}a{color:#9cc2ff}}`;

function Reference({ document }: { document: OpenApiDocument }) {
  const byTag = new Map<string, ReactNode[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
      const tag = (op.tags as string[])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), <Operation key={`${method} ${path}`} path={path} method={method} op={op} />]);
    }
  }
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>Echo API reference</title>
        {/* a constant of this file: no text from elsewhere goes into it */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <h1>Echo API reference</h1>
          <p>{document.info.description}</p>
          <p>
            The machine-readable contract: <a href="/api/openapi.json">/api/openapi.json</a> {`(OpenAPI ${document.openapi}).`}
          </p>
          <nav aria-label="Sections">
            <ul>
              {[...byTag.keys()].map((tag) => (
                <li key={tag}><a href={`#tag-${tag}`}>{tag}</a></li>
              ))}
              <li><a href="#shapes">Shapes</a></li>
            </ul>
          </nav>
          {[...byTag].map(([tag, ops]) => (
            <section key={tag} aria-labelledby={`tag-${tag}`}>
              <h2 id={`tag-${tag}`}>{tag}</h2>
              {ops}
            </section>
          ))}
          <section aria-labelledby="shapes">
            <h2 id="shapes">Shapes</h2>
            {Object.entries(document.components.schemas).map(([name, schema]) => (
              <Component key={name} name={name} schema={schema as Json} />
            ))}
          </section>
        </main>
      </body>
    </html>
  );
}

export const referencePage = (document: OpenApiDocument): string => `<!DOCTYPE html>${renderToStaticMarkup(<Reference document={document} />)}`;
