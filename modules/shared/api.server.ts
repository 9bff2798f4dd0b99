import * as v from "valibot";
import { data, type RouterContextProvider } from "react-router";
import { appContext, type AppContext } from "./context.server";
import { clampLimit, DEFAULT_LIMIT, ListCursorSchema, MAX_JUMP_OFFSET, MAX_LIMIT, PageQuerySchema, tooDeepMessage, type ListCursor } from "./pagination";
import { pageBookmarks } from "./page-bookmarks.server";
import { HttpError, errorResponse } from "./http";
import { ILL_FORMED_MESSAGE, illFormedField, isWellFormedText } from "./text";
import { firstIssue } from "./validation";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parse a JSON body against a schema: 400 with the first issue's message when it fails. Text is
 * checked before the schema sees it: bytes that are not UTF-8 (which `request.json()` would turn
 * into "�" silently) and ill-formed strings anywhere in the body (docs/product-notes.md "Text").
 */
export async function parseJson<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  let text: string;
  try {
    text = strictUtf8.decode(await request.arrayBuffer());
  } catch {
    throw new HttpError(400, "Request body must be valid UTF-8");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body must be valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "Request body must be a JSON object");
  }
  const bad = illFormedField(body);
  if (bad !== null) throw new HttpError(400, `${bad} ${ILL_FORMED_MESSAGE}`);
  return parseInput(schema, body);
}

export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new HttpError(400, firstIssue(result.issues));
  return result.output;
}

/** A storage failure (D1 or KV unreachable or erroring), as opposed to a bug. */
export function isStorageError(error: unknown): boolean {
  const text = `${(error as { message?: unknown })?.message ?? ""} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  return /D1_|SQLITE_|Network connection lost|storage|KV (GET|PUT)|kv|unavailable/i.test(text);
}

/** Turn anything thrown by a service into the API's error shape; never leaks internals. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers);
  if (error instanceof Response) return error;
  console.error("unhandled API error", error);
  if (isStorageError(error)) {
    return errorResponse(503, "Service temporarily unavailable, please try again", { "Retry-After": "5" });
  }
  return errorResponse(500, "Something went wrong");
}

/** Wrap an /api handler: JSON out, typed errors mapped to their status. */
export async function apiHandler(run: () => Promise<unknown>, status = 200): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    return Response.json(result, { status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

export function methodNotAllowed(): Response {
  return errorResponse(405, "Method not allowed");
}

/** What a loader or action receives (its Route.LoaderArgs / Route.ActionArgs). */
export type RouteArgs = { request: Request; context: Readonly<RouterContextProvider>; params: object };
export type ApiRouteOptions = {
  /** The methods an action answers; any other gets 405 before anything runs. */
  methods?: string[];
  /** The status of a success (201 for creations). */
  status?: number;
};

/**
 * An /api resource route's loader or action: `run` gets the request's AppContext and returns
 * what to answer (a value as JSON, or a Response); service errors become the API's error shape.
 * `apiRoute<Route.ActionArgs>(…)` keeps the route's typed params.
 */
export function apiRoute<A extends RouteArgs>(
  run: (args: A & { app: AppContext }) => Promise<unknown>,
  { methods, status = 200 }: ApiRouteOptions = {},
) {
  return async (args: A): Promise<Response> => {
    if (methods && !methods.includes(args.request.method)) return methodNotAllowed();
    const app = args.context.get(appContext);
    // a numbered page continues where the client's previous page of that list ended
    const pages = await pageBookmarks(args.request, app.secure);
    let remembered: string | null = null;
    const response = await apiHandler(async () => {
      const result = await run({ ...args, request: pages.request, app });
      if (!(result instanceof Response)) remembered = await pages.remember(result);
      return result;
    }, status);
    if (remembered && response.ok) response.headers.append("Set-Cookie", remembered);
    return response;
  };
}

/**
 * Wrap a page action: a service error becomes `{ error }` data with its status (the screen
 * toasts it), success passes through. Same services and messages as the /api door.
 */
export async function pageAction<T>(run: () => Promise<T>): Promise<T | ReturnType<typeof data<{ error: string }>>> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) return data({ error: error.message }, { status: error.status, headers: error.headers });
    throw error;
  }
}

/** Parse a form post (pages) against the same schema the JSON API uses. */
export async function parseForm<S extends v.GenericSchema>(request: Request, schema: S, lists: readonly string[] = []): Promise<v.InferOutput<S>> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new HttpError(400, "Request body must be a form");
  }
  const input: Record<string, unknown> = {};
  for (const [key, value] of form) if (typeof value === "string") input[key] = value;
  // a field the schema takes as a list: every value of the key (a form repeats the name)
  for (const key of lists) if (form.has(key)) input[key] = form.getAll(key).filter((x) => typeof x === "string");
  const bad = illFormedField(input);
  if (bad !== null) throw new HttpError(400, `${bad} ${ILL_FORMED_MESSAGE}`);
  return parseInput(schema, input);
}

/**
 * The query string as a plain object (first value of each key), for schema parsing. Decoded
 * strictly: a percent-escape that is not UTF-8 (URLSearchParams would make it "�") or an
 * ill-formed value is a 400 naming the parameter, like any other bad input.
 */
export function queryOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  const search = new URL(request.url).search.slice(1);
  for (const pair of search ? search.split("&") : []) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const key = strictDecode(eq === -1 ? pair : pair.slice(0, eq), "Query string");
    const value = strictDecode(eq === -1 ? "" : pair.slice(eq + 1), key);
    if (!isWellFormedText(key)) throw new HttpError(400, `Query string ${ILL_FORMED_MESSAGE}`);
    if (!isWellFormedText(value)) throw new HttpError(400, `${key} ${ILL_FORMED_MESSAGE}`);
    if (!(key in out)) out[key] = value;
  }
  return out;
}

function strictDecode(part: string, field: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    throw new HttpError(400, `${field} must be valid percent-encoded UTF-8`);
  }
}

/**
 * A page's query string through its schema. Pages are lenient where the API is strict: the
 * address bar is decoded as browsers do (URLSearchParams), and the schema falls back to defaults
 * (v.fallback) rather than failing, so a hand-edited URL still shows the page.
 */
export function pageQuery<S extends v.GenericSchema>(request: Request, schema: S): v.InferOutput<S> {
  return v.parse(schema, Object.fromEntries(new URL(request.url).searchParams));
}

/**
 * page, limit (clamped to 1..maxLimit: 100, or the list's LIST_MAX_LIMIT) and the keyset cursor of
 * a list request. A page number without a cursor is an OFFSET: past MAX_JUMP_OFFSET rows, or
 * deeper than the list's largest page reaches (skipped rows cost what listed ones do), it is
 * refused (400, naming the cursor), so no page number scans. The API's numbered pages get their cursor from the page before
 * (page-bookmarks.server.ts), so a client paging in order is served at any depth.
 */
export function pageRequest(request: Request, defaultLimit = DEFAULT_LIMIT, maxLimit: number = MAX_LIMIT) {
  const query = parseInput(PageQuerySchema, pick(queryOf(request), ["page", "limit", "cursor"]));
  const page = query.page ?? 1;
  const limit = clampLimit(query.limit, defaultLimit, maxLimit);
  const offset = (page - 1) * limit;
  if (query.cursor === undefined && (offset > MAX_JUMP_OFFSET || offset + limit > maxLimit)) throw new HttpError(400, tooDeepMessage(page));
  return { page, limit, cursor: query.cursor };
}

/** A keyset list's cursor, checked by the one ListCursorSchema (400 "cursor is invalid"); null without one. */
export function listCursor(req: { cursor?: string }): ListCursor | null {
  return req.cursor === undefined ? null : parseInput(ListCursorSchema, req.cursor);
}

function pick(obj: Record<string, string>, keys: string[]) {
  const out: Record<string, string> = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}
