// A tiny HTTP client for the API tests: real fetch against BASE_URL, cookies kept per client
// (the session and the D1 bookmark, decision 017).
// Every JSON answer is checked against the server's published contract (contract.ts): one that
// does not match it throws a ContractError, failing the test that received it.
import { ContractError, contractOf, contractViolation } from "./contract";

export const BASE_URL = process.env.TEST_BASE_URL ?? "http://127.0.0.1:8787";

export class Client {
  cookie = "";
  constructor(readonly base = BASE_URL) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
    const send = () => fetch(this.base + path, {
      method,
      signal,
      headers: {
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    // A kept-alive connection the server closed as the request went out ("other side closed":
    // twice in a suite's ~20,000 requests at load ~25, issue 28) is the transport's race, not an
    // answer: the request goes once more on a new connection. A server that goes down fails twice.
    const res = await send().catch((error: unknown) => {
      if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
      return send();
    });
    this.keepCookies(res.headers.getSetCookie());
    const text = await res.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test responses are inspected freely
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const violation = contractViolation(await contractOf(this.base), method, this.base + path, res.status, json);
    if (violation) throw new ContractError(violation);
    return { status: res.status, headers: res.headers, json, text };
  }
  /** A browser's cookie jar, in short: each Set-Cookie replaces its name's value; Max-Age=0 drops it. */
  private keepCookies(setCookies: string[]) {
    const jar = new Map<string, string>();
    for (const pair of this.cookie ? this.cookie.split("; ") : []) jar.set(pair.slice(0, pair.indexOf("=")), pair);
    for (const header of setCookies) {
      const pair = header.split(";")[0]!;
      const name = pair.slice(0, pair.indexOf("="));
      if (/;\s*Max-Age=0(;|$)/i.test(header)) jar.delete(name);
      else jar.set(name, pair);
    }
    this.cookie = [...jar.values()].join("; ");
  }
  get = (path: string, headers?: Record<string, string>) => this.request("GET", path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request("POST", path, body ?? {}, headers);
  patch = (path: string, body?: unknown, headers?: Record<string, string>) => this.request("PATCH", path, body ?? {}, headers);
  delete = (path: string, headers?: Record<string, string>) => this.request("DELETE", path, undefined, headers);
}

/**
 * A value in the app's cookie encoding (React Router's: JSON, base64, percent-encoded; decision
 * 011), for tests that plant a cookie the way the browser or the server would write it.
 */
export function cookieValue(value: unknown): string {
  return encodeURIComponent(Buffer.from(JSON.stringify(value), "utf8").toString("base64"));
}

let counter = 0;
/** A user name unique to this test run. */
export const uniqueName = (prefix = "u") => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`.slice(0, 30);

export async function signedUp(prefix = "u") {
  const client = new Client();
  const userName = uniqueName(prefix);
  const res = await client.post("/api/auth/signup", { userName, password: "pass1234" });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${res.text}`);
  return { client, user: res.json as { _id: string; userName: string } };
}

export function expectErrorShape(json: { error?: unknown; message?: unknown } | undefined) {
  if (!json || typeof json.error !== "string" || json.error !== json.message || !json.error) {
    throw new Error(`not the error shape: ${JSON.stringify(json)}`);
  }
}

/** A request's D1 cost from its Server-Timing header (the test server sets EXPOSE_D1_STATS=1). */
export function d1Cost(res: { headers: Headers }, what = "the request"): { roundTrips: number; rows: number } {
  const m = /rt=(\d+) rows=(\d+)/.exec(res.headers.get("server-timing") ?? "");
  if (!m) throw new Error(`no D1 stats on ${what}: ${res.headers.get("server-timing")}`);
  return { roundTrips: Number(m[1]), rows: Number(m[2]) };
}

/** A GET as the client, its D1 cost, and its JSON when it answers JSON (a page: null). */
export async function timed(client: Client, path: string) {
  const res = await fetch(BASE_URL + path, { headers: { Cookie: client.cookie }, redirect: "manual" });
  const cost = d1Cost(res, path);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test responses are inspected freely
  const json = res.headers.get("content-type")?.includes("json") ? ((await res.json()) as Record<string, any>) : (await res.text(), null);
  return { status: res.status, ...cost, json };
}

/**
 * Poll a list until `ok` holds or `ms` pass, and answer its last page: a feed's index builds and
 * takes new posts in the background (the change stream), seconds behind the write on a busy machine.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function untilPage(client: Client, path: string, ok: (page: Record<string, any>) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await client.get(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    if (ok(res.json) || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The per-account limits count in fixed windows (modules/shared/rate-limit.server.ts): a test that
 * counts calls to a limit's exact refusal must not straddle a window's edge (its calls would count
 * in two windows and none be refused). Waits for the next window when less than `need` is left of
 * this one (the server's clock is this machine's).
 */
export async function freshWindow(windowMs: number, need = 120_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < need) await new Promise((r) => setTimeout(r, left + 1_000));
}
