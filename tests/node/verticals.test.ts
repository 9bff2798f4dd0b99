// The micro-frontend cut (modules/verticals, docs/decisions/011): every route has exactly one
// owner, each vertical's build keeps exactly its own routes, and the router's path → vertical
// matches what the builds hold.
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_VERTICAL, ROUTE_TABLE, VERTICALS, VERTICAL_PATHS, isCatchAll, ownership, ownerOf, reloadAcrossVerticals, verticalOf } from "../../modules/verticals/index";

async function routesOf(vertical?: string): Promise<RouteConfigEntry[]> {
  vi.resetModules();
  if (vertical) vi.stubEnv("VERTICAL", vertical);
  return (await import("../../routes/routes")).default as RouteConfigEntry[];
}

/** [full path, file] of every leaf route. */
function leaves(entries: RouteConfigEntry[], parent = ""): [string, string][] {
  return entries.flatMap((e) => {
    const path = e.path === undefined ? parent : `${parent}/${e.path}`;
    return e.children ? leaves(e.children, path) : [[path || "/", e.file] as [string, string]];
  });
}

afterEach(() => vi.unstubAllEnvs());

describe("the vertical cut", () => {
  it("names an owner for every route but the catch-alls (nothing falls to the default by accident)", async () => {
    for (const [path] of leaves(await routesOf())) if (!isCatchAll(path)) expect(ownerOf(path), path).not.toBeNull();
  });

  it("splits the routes: each vertical's build holds its own and the catch-alls, together all of them", async () => {
    const all = leaves(await routesOf()).map(([p, f]) => `${p} ${f}`);
    const seen = new Map<string, string[]>();
    for (const vertical of VERTICALS) {
      const own = leaves(await routesOf(vertical));
      for (const [path, file] of own) {
        if (!isCatchAll(path)) expect(verticalOf(path), `${path} in the ${vertical} build`).toBe(vertical);
        seen.set(`${path} ${file}`, [...(seen.get(`${path} ${file}`) ?? []), vertical]);
      }
      // every vertical can answer a page's and an API's 404 itself
      expect(own.map(([p]) => p)).toEqual(expect.arrayContaining(["/*", "/api/*"]));
    }
    expect([...seen.keys()].sort()).toEqual([...all].sort());
    for (const [route, owners] of seen) if (!isCatchAll(route.split(" ")[0]!)) expect(owners, route).toHaveLength(1);
  });

  it("refuses a build for a vertical that does not exist", async () => {
    await expect(routesOf("nope")).rejects.toThrow(/VERTICAL=nope/);
  });
});

describe("the one route table", () => {
  it("gives each vertical the part of the URL space its routes claim", () => {
    expect(Object.fromEntries(VERTICALS.map((v) => [v, VERTICAL_PATHS.filter(([, owner]) => owner === v).map(([p]) => p).sort()]))).toEqual({
      echos: ["/", "/api/echo/*", "/create-echo", "/echo/*", "/new", "/tag/*"],
      scrolls: ["/api/live", "/api/scroll/*", "/create-scroll", "/scroll/*", "/scrolls/*"],
      community: ["/api/community/*", "/browse-community", "/browse/*", "/community"],
      people: ["/api/notifications/*", "/api/profile/*", "/api/search/*", "/notifications", "/profile", "/search", "/user/*"],
      // moderation (decision 029) lives with the account: the moderator's queue, the user's status and appeal
      account: ["/account-status", "/api/auth/*", "/api/health", "/api/moderation/*", "/api/openapi.json", "/appeal", "/developers", "/login", "/logout", "/moderation", "/settings", "/signup"],
    });
  });

  it("refuses a route put under a vertical whose part of the URL space another owns", () => {
    const replies = { place: "app", path: "echo/:id/replies", file: "pages/replies.tsx" } as const;
    expect(() => ownership({ ...ROUTE_TABLE, scrolls: [...ROUTE_TABLE.scrolls, replies] })).toThrow(/\/echo\/\* is claimed by echos and scrolls/);
    const apiRow = { place: "api", path: "scroll/:id/x", file: "api/x.ts" } as const;
    expect(() => ownership({ ...ROUTE_TABLE, people: [...ROUTE_TABLE.people, apiRow] })).toThrow(/\/api\/scroll\/\* is claimed by scrolls and people/);
  });
});

describe("verticalOf: the router's path → vertical", () => {
  it.each([
    ["/", "echos"],
    ["/_.data", "echos"],
    ["/echo/01abc", "echos"],
    ["/echo/01abc.data", "echos"],
    ["/tag/rust", "echos"],
    ["/api/echo/post", "echos"],
    ["/scrolls/feeds", "scrolls"],
    ["/scroll/new.data", "scrolls"],
    ["/api/scroll/all", "scrolls"],
    ["/browse/tags", "community"],
    ["/api/community/tags", "community"],
    ["/user/01abc", "people"],
    ["/api/search/users", "people"],
    ["/api/search/echos", "people"],
    ["/settings", "account"],
    ["/login.data", "account"],
    ["/api/auth/me", "account"],
    ["/no-such-page", DEFAULT_VERTICAL],
    ["/api/nope", DEFAULT_VERTICAL],
    ["/echoes", DEFAULT_VERTICAL],
  ])("%s → %s", (path, vertical) => {
    expect(verticalOf(path)).toBe(vertical);
  });
});

describe("redirects across verticals reload the document", () => {
  const origin = "http://127.0.0.1:8787";
  const redirect = (location: string) => new Response(null, { status: 302, headers: { Location: location } });

  it("marks a redirect into another vertical, not one inside it nor a page", () => {
    expect(reloadAcrossVerticals(redirect("/login"), "echos", origin).headers.get("X-Remix-Reload-Document")).toBe("true");
    expect(reloadAcrossVerticals(redirect(`${origin}/scrolls`), "echos", origin).headers.get("X-Remix-Reload-Document")).toBe("true");
    expect(reloadAcrossVerticals(redirect("/echo/1"), "echos", origin).headers.has("X-Remix-Reload-Document")).toBe(false);
    expect(reloadAcrossVerticals(new Response("page"), "echos", origin).headers.has("X-Remix-Reload-Document")).toBe(false);
    // one app with every route (npm run dev): nothing to reload
    expect(reloadAcrossVerticals(redirect("/login"), "", origin).headers.has("X-Remix-Reload-Document")).toBe(false);
  });
});
