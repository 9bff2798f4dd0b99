// The micro-frontend contracts through the router's one URL (docs/decisions/011): each vertical
// serves its own pages with its own assets, shares the session, and the router does the shared
// hardening once for all of them.
import { beforeAll, describe, expect, it } from "vitest";
import { VERTICALS, type Vertical } from "../../modules/verticals/index";
import { BASE_URL, Client, expectErrorShape, signedUp } from "./client";

/** A page and a GET API route each vertical owns, and a write it owns. */
const OWNED: Record<Vertical, { page: string; api: string; write: string }> = {
  echos: { page: "/", api: "/api/echo/all", write: "/api/echo/post" },
  scrolls: { page: "/scrolls", api: "/api/scroll/all", write: "/api/scroll/create" },
  community: { page: "/community", api: "/api/community/tags", write: "/community" },
  people: { page: "/profile", api: "/api/profile/me", write: "/api/profile/me" },
  account: { page: "/settings", api: "/api/auth/me", write: "/api/auth/login" },
};

let client: Client;
const pages = new Map<Vertical, { html: string; headers: Headers }>();

beforeAll(async () => {
  client = (await signedUp("vt")).client;
  for (const vertical of VERTICALS) {
    const res = await client.get(OWNED[vertical].page);
    expect(res.status, OWNED[vertical].page).toBe(200);
    pages.set(vertical, { html: res.text, headers: res.headers });
  }
});

const scriptsOf = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);

describe("each vertical behind the router", () => {
  it("serves its pages with its own client assets, under its own prefix, and those assets load", async () => {
    for (const vertical of VERTICALS) {
      const scripts = scriptsOf(pages.get(vertical)!.html);
      expect(scripts.length, vertical).toBeGreaterThan(0);
      for (const src of scripts) expect(src.startsWith(`/_v/${vertical}/assets/`), `${vertical}: ${src}`).toBe(true);
      const res = await fetch(BASE_URL + scripts[0]);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/javascript/);
    }
  });

  it("answers another vertical's asset prefix with that vertical's files only: a file of one is a 404 under another", async () => {
    const [echosEntry] = scriptsOf(pages.get("echos")!.html).filter((s) => s.includes("/entry.client-"));
    expect(echosEntry).toBeTruthy();
    const underScrolls = echosEntry!.replace("/_v/echos/", "/_v/scrolls/");
    const scrollsHas = scriptsOf(pages.get("scrolls")!.html).includes(underScrolls);
    const res = await fetch(BASE_URL + underScrolls, { headers: { Cookie: client.cookie }, redirect: "manual" });
    // the two builds' entries differ (their manifests do), so scrolls has no such file
    expect(scrollsHas).toBe(false);
    expect(res.status).toBe(404);
    // an asset of an older deploy (a name no build has now) and a prefix no vertical has
    for (const path of ["/_v/echos/assets/entry.client-OLDBUILD.js", "/_v/nope/assets/x.js"]) {
      expect((await fetch(BASE_URL + path, { headers: { Cookie: client.cookie }, redirect: "manual" })).status, path).toBe(404);
    }
  });

  it("shares the session: one sign-up is signed in to every vertical's pages and API", async () => {
    for (const vertical of VERTICALS) {
      const res = await client.get(OWNED[vertical].api);
      expect(res.status, `${vertical} ${OWNED[vertical].api}`).toBe(200);
    }
    const guest = new Client();
    for (const vertical of VERTICALS) expect((await guest.get(OWNED[vertical].page)).status, vertical).toBe(302);
  });

  it("refuses a cross-site write for every vertical (403 in the API's shape) and changes nothing", async () => {
    const before = (await client.get("/api/profile/me")).json;
    for (const vertical of VERTICALS) {
      const res = await client.post(OWNED[vertical].write, { content: "csrf", name: "csrf", bio: "csrf" }, { Origin: "https://evil.example" });
      expect(res.status, vertical).toBe(403);
      expectErrorShape(res.json);
    }
    expect((await client.get("/api/profile/me")).json).toEqual(before);
  });

  it("sends every page with the router's headers: one CSP nonce that the page's scripts and speculation rules carry, a request id, D1 stats", async () => {
    const ids = new Set<string>();
    for (const vertical of VERTICALS) {
      const { html, headers } = pages.get(vertical)!;
      const nonce = /'nonce-([^']+)'/.exec(headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce, vertical).toBeTruthy();
      const nonces = new Set([...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((m) => m[1]));
      expect([...nonces], vertical).toEqual([nonce]);
      expect(html, vertical).toMatch(/<script type="speculationrules" nonce="/);
      ids.add(headers.get("x-request-id") ?? "");
      expect(headers.get("server-timing"), vertical).toMatch(/^d1;desc="rt=\d+ rows=\d+/);
    }
    expect(ids.size).toBe(VERTICALS.length);
    expect(ids.has("")).toBe(false);
  });
});
