// Every JSON answer the API tests receive is checked against the published contract (decision
// 018): the server's own GET /api/openapi.json, validated with ajv's JSON Schema 2020-12 (the
// dialect of OpenAPI 3.1). The test client (client.ts) calls `contractViolation` on each answer
// and throws a ContractError on a mismatch, so an answer that drifts from the document fails
// whichever test received it.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class ContractError extends Error {}

type Operation = { method: string; pattern: RegExp; literal: number; statuses: Record<string, Validator> };
type Contract = { document: Json; operations: Operation[]; error: ValidateFunction };
/** A response schema's check, compiled the first time an answer needs it. */
type Validator = { (json: unknown): boolean; errors: ValidateFunction["errors"]; compiled: () => ValidateFunction };

const loaded = new Map<string, Promise<Contract>>();

/**
 * The contract of the server at `base`, fetched once per test file. Each response schema compiles
 * when an answer first needs it: compiling all of them took ~1 CPU-s in every API test file, most of
 * which touch a few routes (`compileAll` compiles every one: openapi.test.ts).
 */
export function contractOf(base: string): Promise<Contract> {
  let contract = loaded.get(base);
  if (!contract) {
    contract = load(base);
    loaded.set(base, contract);
  }
  return contract;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

async function load(base: string): Promise<Contract> {
  const res = await fetch(`${base}/api/openapi.json`);
  if (res.status !== 200) throw new ContractError(`GET /api/openapi.json → ${res.status}`);
  const document = (await res.json()) as Json;
  // not strict: the document's OpenAPI keywords (paths, parameters…) around the schemas are not JSON Schema
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(document, "openapi");
  const compile = (...at: string[]) => ajv.compile({ $ref: `openapi#/${pointer(...at)}` });
  const lazily = (...at: string[]): Validator => {
    let fn: ValidateFunction | undefined;
    const compiled = () => (fn ??= compile(...at));
    const validate = ((json: unknown) => {
      const ok = compiled()(json);
      validate.errors = fn!.errors;
      return ok;
    }) as Validator;
    validate.compiled = compiled;
    return validate;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json)) {
      const statuses: Record<string, Validator> = {};
      for (const [status, answer] of Object.entries(op.responses as Json)) {
        if (answer.content?.["application/json"]) statuses[status] = lazily("paths", path, method, "responses", status, "content", "application/json", "schema");
      }
      const pattern = new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`);
      operations.push({ method: method.toUpperCase(), pattern, literal: path.split("/").filter((s) => !s.startsWith("{")).length, statuses });
    }
  }
  // a literal segment wins over a parameter, as in the router: /api/scroll/all is not /api/scroll/{id}
  operations.sort((a, b) => b.literal - a.literal);
  return { document, operations, error: compile("components", "schemas", "Error") };
}

/** Compile every response schema of the document (each one must compile, used or not). */
export function compileAll(contract: Contract): number {
  const all = contract.operations.flatMap((o) => Object.values(o.statuses));
  for (const v of all) v.compiled();
  return all.length;
}

/**
 * What is wrong with an answer by the contract, or null. Only JSON answers of /api paths are
 * judged: an error must have the error shape (on any path, documented or not: 415 included), a
 * success must come from a documented operation, with a documented status and a body its schema
 * accepts; an OPTIONS success has no body at all.
 */
export function contractViolation(contract: Contract, method: string, url: string, status: number, json: unknown): string | null {
  // the router ignores a trailing slash: /api/scroll/{id}/ is /api/scroll/{id}
  const path = new URL(url).pathname.replace(/(.)\/+$/, "$1");
  if (!path.startsWith("/api/") || json === undefined) return null;
  const where = `${method} ${path} → ${status}`;
  if (status >= 400) return contract.error(json) ? null : `${where}: not the error shape: ${JSON.stringify(json).slice(0, 300)}`;
  // OPTIONS runs nothing (verticals/options.ts): 204 + Allow, no body; a JSON success is a read
  // that ran (what React Router did before issue 28)
  if (method === "OPTIONS") return `${where}: OPTIONS answered a body; it answers 204 with Allow and runs nothing`;
  const byPath = contract.operations.filter((o) => o.pattern.test(path));
  // React Router answers HEAD with the route's loader: it gets what GET gets
  const asMethod = method === "HEAD" ? "GET" : method;
  const op = byPath.find((o) => o.method === asMethod);
  if (!op) return `${where}: answered, but the contract has no ${method} ${path}`;
  const validate = op.statuses[String(status)] ?? op.statuses[`${String(status)[0]}XX`];
  if (!validate) return `${where}: status not in the contract (it lists ${Object.keys(op.statuses).join(", ")})`;
  if (validate(json)) return null;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "(body)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  return `${where}: the answer does not match the contract: ${errors.join("; ")}; body ${JSON.stringify(json).slice(0, 300)}`;
}
