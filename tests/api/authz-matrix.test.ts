// Authorization matrix: every /api route and method × actor (owner, another user, guest) ×
// visibility (public, private scroll) where it applies, with the status spec §6 and the product
// decisions call for. The table is data; a guard test fails when the route table (modules/verticals/table.ts) gains an /api
// route without a row, so no route ships without its permissions written down.
import { beforeAll, describe, expect, it } from "vitest";
import { apiRoutePaths } from "../../modules/verticals/index";
import { Client, expectErrorShape, signedUp, uniqueName } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Actor = "owner" | "other" | "guest";
type Visibility = "public" | "private" | "-";
type Row = {
  /** the route pattern exactly as in modules/verticals/table.ts (under the "api" prefix) */
  route: string;
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  /**
   * The path, with placeholders filled per cell: {user} the owner's id, {echo} an echo of the
   * owner, {newEcho} a fresh echo of the owner, {scroll} the owner's curation of the row's
   * visibility, {feed} the owner's feed of that visibility, {newScroll} a fresh curation of that
   * visibility (for deletes), {tag} a tag of the owner's echo.
   */
  path: string;
  actor: Actor;
  visibility: Visibility;
  body?: (f: Fixtures) => unknown;
  expect: number;
};
type Fixtures = { ownerName: string; user: string; echo: string; tag: string };

const PASSWORD = "pass1234";
const rows: Row[] = [];

/** Add rows for each actor (with the status for each) and each visibility given. */
function cells(
  route: string,
  method: Row["method"],
  path: string,
  expectFor: Partial<Record<Actor, number>> | ((v: Visibility) => Partial<Record<Actor, number>>),
  opts: { visibilities?: Visibility[]; body?: Row["body"] } = {},
) {
  for (const visibility of opts.visibilities ?? ["-"]) {
    const table = typeof expectFor === "function" ? expectFor(visibility) : expectFor;
    for (const actor of ["owner", "other", "guest"] as const) {
      const status = table[actor];
      if (status !== undefined) rows.push({ route, method, path, actor, visibility, body: opts.body, expect: status });
    }
  }
}

const signedIn = (status: number) => ({ owner: status, other: status, guest: 401 });
const both: Visibility[] = ["public", "private"];
/** Owner-only writes on a scroll: others 403 (private scrolls too), guests 401. */
const ownerOnly = (status: number) => ({ owner: status, other: 403, guest: 401 });
/** Reads of a scroll: private ones answer 403 to everyone but the creator. */
const scrollRead = (v: Visibility) => ({ owner: 200, other: v === "private" ? 403 : 200, guest: 401 });

// --- health and auth
cells("health", "GET", "/api/health", { owner: 200, other: 200, guest: 200 });
// the API's contract is public (decision 018)
cells("openapi.json", "GET", "/api/openapi.json", { owner: 200, other: 200, guest: 200 });
cells("auth/me", "GET", "/api/auth/me", signedIn(200));
// Sign-up and login are open to everyone (a signed-in client may create or switch accounts).
cells("auth/signup", "POST", "/api/auth/signup", { owner: 201, other: 201, guest: 201 }, {
  body: () => ({ userName: uniqueName("mx"), password: PASSWORD }),
});
cells("auth/login", "POST", "/api/auth/login", { owner: 200, other: 200, guest: 200 }, {
  body: (f) => ({ userName: f.ownerName, password: PASSWORD }),
});
// Logout is idempotent: a client whose session is already gone may still clear its cookie.
cells("auth/logout", "POST", "/api/auth/logout", { owner: 200, other: 200, guest: 200 });
// Changing one's password needs a session. The same one again is refused (issue 29), so the
// shared sessions survive: a signed-in caller gets that 400, a guest the 401.
cells("auth/password", "POST", "/api/auth/password", { owner: 400, other: 400, guest: 401 }, {
  body: () => ({ currentPassword: PASSWORD, newPassword: PASSWORD }),
});

// --- echos
cells("echo/all", "GET", "/api/echo/all?user={user}", signedIn(200));
// live updates (decision 016): a plain GET is authorized as the handshake would be, then told to
// upgrade (426); the handshakes themselves are tested in live.test.ts
cells("live", "GET", "/api/live?all=1", signedIn(426));
cells("live", "GET", "/api/live?following=1", signedIn(426));
cells("live", "GET", "/api/live?scroll={feed}", (v) => ({ owner: 426, other: v === "private" ? 403 : 426, guest: 401 }), { visibilities: both });
cells("live", "GET", "/api/live?scroll={scroll}", (v) => ({ owner: 426, other: v === "private" ? 403 : 426, guest: 401 }), { visibilities: both });
// one's own Following timeline: there is no one else's to ask for
cells("echo/following", "GET", "/api/echo/following", signedIn(200));
cells("echo/echo/:id", "GET", "/api/echo/echo/{echo}", signedIn(200));
cells("echo/echo/:id", "GET", "/api/echo/echo/01aaaaaaaaaaaaaaaaaaaaaaaa", { owner: 404, other: 404, guest: 401 });
cells("echo/post", "POST", "/api/echo/post", signedIn(201), { body: () => ({ content: "matrix", tags: ["matrix"] }) });
cells("echo/delete/:id", "DELETE", "/api/echo/delete/{newEcho}", { owner: 200, other: 403, guest: 401 });
cells("echo/delete/:id", "DELETE", "/api/echo/delete/01aaaaaaaaaaaaaaaaaaaaaaaa", { owner: 404, other: 404, guest: 401 });
cells("echo/like/:id", "POST", "/api/echo/like/{newEcho}", signedIn(200));
cells("echo/like/:id", "DELETE", "/api/echo/like/{newEcho}", signedIn(200));
cells("echo/tag/:name", "GET", "/api/echo/tag/{tag}", signedIn(200));
cells("echo/:id/report", "POST", "/api/echo/{newEcho}/report", signedIn(201), { body: () => ({ reason: "spam" }) });
cells("echo/:id/share", "POST", "/api/echo/{newEcho}/share", signedIn(200));
cells("echo/:id/reply", "POST", "/api/echo/{echo}/reply", signedIn(201), { body: () => ({ content: "a reply" }) });
cells("echo/:id/thread", "GET", "/api/echo/{echo}/thread", signedIn(200));
// edits (decision 025): only the author; the history is read by whoever may read the echo
cells("echo/:id/edit", "PATCH", "/api/echo/{newEcho}/edit", { owner: 200, other: 403, guest: 401 }, { body: () => ({ content: "matrix edit", tags: [] }) });
cells("echo/:id/edit", "PATCH", "/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/edit", { owner: 404, other: 404, guest: 401 }, { body: () => ({ content: "matrix edit" }) });
cells("echo/:id/history", "GET", "/api/echo/{echo}/history", signedIn(200));
cells("echo/:id/history", "GET", "/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/history", { owner: 404, other: 404, guest: 401 });
// reposts and quotes (decision 027): anyone signed in who can see the echo; idempotent
cells("echo/:id/repost", "POST", "/api/echo/{echo}/repost", signedIn(200));
cells("echo/:id/repost", "DELETE", "/api/echo/{echo}/repost", signedIn(200));
cells("echo/:id/repost", "POST", "/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/repost", { owner: 404, other: 404, guest: 401 });
cells("echo/:id/reposts", "GET", "/api/echo/{echo}/reposts", signedIn(200));
cells("echo/:id/reposts", "GET", "/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/reposts", { owner: 404, other: 404, guest: 401 });
cells("echo/:id/quote", "POST", "/api/echo/{echo}/quote", signedIn(201), { body: () => ({ content: "a quote" }) });
cells("echo/:id/quote", "POST", "/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/quote", { owner: 404, other: 404, guest: 401 }, { body: () => ({ content: "a quote" }) });
cells("echo/:id/quotes", "GET", "/api/echo/{echo}/quotes", signedIn(200));
cells("echo/:id/quotes", "GET", "/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/quotes", { owner: 404, other: 404, guest: 401 });

// --- scrolls
cells("scroll/create", "POST", "/api/scroll/create", signedIn(201), { body: () => ({ name: "m", type: "curation" }) });
cells("scroll/all", "GET", "/api/scroll/all", signedIn(200));
cells("scroll/:id", "GET", "/api/scroll/{scroll}", scrollRead, { visibilities: both });
cells("scroll/:id", "PATCH", "/api/scroll/{scroll}", ownerOnly(200), { visibilities: both, body: () => ({ description: "edited" }) });
cells("scroll/:id", "DELETE", "/api/scroll/{newScroll}", ownerOnly(200), { visibilities: both });
cells("scroll/:id/add-echo", "POST", "/api/scroll/{scroll}/add-echo", ownerOnly(200), {
  visibilities: both,
  body: (f) => ({ echoId: f.echo }),
});
// a feed takes no hand-picked echos: 400 for its creator, still 403 for anyone else
cells("scroll/:id/add-echo", "POST", "/api/scroll/{feed}/add-echo", ownerOnly(400), {
  visibilities: ["public"],
  body: (f) => ({ echoId: f.echo }),
});
cells("scroll/:id/remove-echo/:echoId", "DELETE", "/api/scroll/{scroll}/remove-echo/{echo}", ownerOnly(200), { visibilities: both });
cells("scroll/:id/echos", "GET", "/api/scroll/{scroll}/echos", scrollRead, { visibilities: both });
cells("scroll/:id/echos", "GET", "/api/scroll/{feed}/echos", scrollRead, { visibilities: both });
// nobody follows their own scroll (400) or someone else's private one (403)
for (const method of ["POST", "DELETE"] as const) {
  cells("scroll/:id/follow", method, "/api/scroll/{feed}/follow", (v) => ({ owner: 400, other: v === "private" ? 403 : 200, guest: 401 }), {
    visibilities: both,
  });
}

// issue 16: the live preview needs only a session; why-here reads like the scroll; a fork is open
// to anyone who may see the feed (its creator too), never of someone else's private feed
cells("scroll/preview", "POST", "/api/scroll/preview", signedIn(200), { body: () => ({ feedConfig: { includedTags: ["matrix"] } }) });
cells("scroll/:id/why/:echoId", "GET", "/api/scroll/{scroll}/why/{echo}", scrollRead, { visibilities: both });
cells("scroll/:id/why/:echoId", "GET", "/api/scroll/{feed}/why/{echo}", scrollRead, { visibilities: both });
cells("scroll/:id/fork", "POST", "/api/scroll/{feed}/fork", (v) => ({ owner: 201, other: v === "private" ? 403 : 201, guest: 401 }), { visibilities: both });
cells("scroll/:id/fork", "POST", "/api/scroll/{scroll}/fork", (v) => ({ owner: 400, other: v === "private" ? 403 : 400, guest: 401 }), { visibilities: both });

// --- search, community
cells("search/users", "GET", "/api/search/users?q=mx", signedIn(200));
cells("search/echos", "GET", "/api/search/echos?q=mx", signedIn(200));
cells("community/scrolls/public/:type", "GET", "/api/community/scrolls/public/feed", signedIn(200));
cells("community/scrolls/public/:type", "GET", "/api/community/scrolls/public/curation?limit=4", signedIn(200));
cells("community/tags", "GET", "/api/community/tags?limit=8", signedIn(200));
cells("community/echos/popular", "GET", "/api/community/echos/popular?limit=3", signedIn(200));

// --- profiles ("owner" is the profile's user, "other" someone viewing it)
cells("profile/me", "GET", "/api/profile/me", signedIn(200));
cells("profile/me", "PATCH", "/api/profile/me", signedIn(200), { body: () => ({ bio: "matrix bio" }) });
// one's own data only: the export takes no user id, so another user gets their own file
cells("profile/me/export", "GET", "/api/profile/me/export", signedIn(200));
// Deleting the account needs a session, then the password (a wrong one here: the world stays).
cells("profile/me", "DELETE", "/api/profile/me", { owner: 400, other: 400, guest: 401 }, { body: () => ({ password: "not-the-password" }) });
cells("profile/user/:userId", "GET", "/api/profile/user/{user}", signedIn(200));
cells("profile/user/:userId", "GET", "/api/profile/user/01aaaaaaaaaaaaaaaaaaaaaaaa", { owner: 404, other: 404, guest: 401 });
cells("profile/user/:userId/followers", "GET", "/api/profile/user/{user}/followers", signedIn(200));
cells("profile/user/:userId/following", "GET", "/api/profile/user/{user}/following", signedIn(200));
cells("profile/user/:userId/echos", "GET", "/api/profile/user/{user}/echos", signedIn(200));
cells("profile/user/:userId/scrolls", "GET", "/api/profile/user/{user}/scrolls?type=created", signedIn(200));
cells("profile/user/:userId/scrolls", "GET", "/api/profile/user/{user}/scrolls?type=saved", signedIn(200));
for (const method of ["POST", "DELETE"] as const) {
  cells("profile/user/:userId/follow", method, "/api/profile/user/{user}/follow", { owner: 400, other: 200, guest: 401 });
}
// blocks and mutes (issue 32): one's own lists only (no id in the path); oneself is a 400. No
// cell blocks for real (a block would refuse the follow cells above): unknown users and undoing
cells("profile/me/blocks", "GET", "/api/profile/me/blocks", signedIn(200));
cells("profile/me/mutes", "GET", "/api/profile/me/mutes", signedIn(200));
// muted words (decision 028): one's own list only; an unknown word id removes nothing (idempotent)
cells("profile/me/muted-words", "GET", "/api/profile/me/muted-words", signedIn(200));
cells("profile/me/muted-words", "POST", "/api/profile/me/muted-words", signedIn(200), { body: () => ({ phrase: "authz matrix", contexts: ["search"] }) });
cells("profile/me/muted-words/:wordId", "DELETE", "/api/profile/me/muted-words/01aaaaaaaaaaaaaaaaaaaaaaaa", signedIn(200));
cells("profile/user/:userId/block", "GET", "/api/profile/user/{user}/block", signedIn(200));
cells("profile/user/:userId/block", "POST", "/api/profile/user/01aaaaaaaaaaaaaaaaaaaaaaaa/block", { owner: 404, other: 404, guest: 401 });
cells("profile/user/:userId/block", "DELETE", "/api/profile/user/{user}/block", { owner: 400, other: 200, guest: 401 });
cells("profile/user/:userId/mute", "POST", "/api/profile/user/{user}/mute", { owner: 400, other: 200, guest: 401 }, { body: () => ({ duration: "1h" }) });
cells("profile/user/:userId/mute", "DELETE", "/api/profile/user/{user}/mute", { owner: 400, other: 200, guest: 401 });

// --- moderation (issue 32, decision 029): moderators only — 403 for everyone else (owner and other
// are no moderators), 401 signed out; what a moderator gets is in tests/api/moderation.test.ts.
// The checks run before the body is read: a non-moderator learns nothing from validation.
const moderatorOnly = { owner: 403, other: 403, guest: 401 };
cells("moderation/queue", "GET", "/api/moderation/queue", moderatorOnly);
cells("moderation/log", "GET", "/api/moderation/log", moderatorOnly);
cells("moderation/case/:id/assign", "POST", "/api/moderation/case/{echo}/assign", moderatorOnly);
cells("moderation/case/:id/resolve", "POST", "/api/moderation/case/{echo}/resolve", moderatorOnly, { body: () => ({ note: "matrix" }) });
cells("moderation/echo/:id", "POST", "/api/moderation/echo/{echo}", moderatorOnly, { body: () => ({ hidden: true, reason: "matrix" }) });
cells("moderation/user/:userId", "POST", "/api/moderation/user/{user}", moderatorOnly, { body: () => ({ action: "suspend", reason: "matrix" }) });
// one's own notices; an appeal of an action that is not one's own is a 404
cells("moderation/me", "GET", "/api/moderation/me", signedIn(200));
cells("moderation/appeal/:actionId", "POST", "/api/moderation/appeal/01aaaaaaaaaaaaaaaaaaaaaaaa", { owner: 404, other: 404, guest: 401 }, { body: () => ({ text: "matrix" }) });
// no session: the name and password are the credentials; an account not suspended has nothing to appeal
cells("moderation/appeal-suspension", "POST", "/api/moderation/appeal-suspension", { owner: 404, other: 404, guest: 404 }, {
  body: (f) => ({ userName: f.ownerName, password: PASSWORD, text: "matrix" }),
});

// --- notifications: everyone reads and marks only their own (no id in the path)
cells("notifications", "GET", "/api/notifications", signedIn(200));
cells("notifications/read", "POST", "/api/notifications/read", signedIn(200));
cells("notifications/unread", "GET", "/api/notifications/unread", signedIn(200));

// --- unknown API paths: 404 JSON for everyone
cells("*", "GET", "/api/no/such/route", { owner: 404, other: 404, guest: 404 });
cells("*", "POST", "/api/no/such/route", { owner: 404, other: 404, guest: 404 });

// --- a wrong method is 405 (before any auth check), in the error shape, on every route
const wrongMethods: [string, Row["method"], string][] = [
  ["health", "POST", "/api/health"],
  ["openapi.json", "POST", "/api/openapi.json"],
  ["auth/me", "POST", "/api/auth/me"],
  ["auth/signup", "GET", "/api/auth/signup"],
  ["auth/login", "GET", "/api/auth/login"],
  ["auth/logout", "GET", "/api/auth/logout"],
  ["auth/password", "GET", "/api/auth/password"],
  ["echo/all", "POST", "/api/echo/all"],
  ["echo/following", "POST", "/api/echo/following"],
  ["echo/echo/:id", "DELETE", "/api/echo/echo/{echo}"],
  ["echo/post", "GET", "/api/echo/post"],
  ["echo/delete/:id", "POST", "/api/echo/delete/{echo}"],
  ["echo/like/:id", "GET", "/api/echo/like/{echo}"],
  ["echo/tag/:name", "POST", "/api/echo/tag/{tag}"],
  ["echo/:id/report", "GET", "/api/echo/{echo}/report"],
  ["echo/:id/share", "GET", "/api/echo/{echo}/share"],
  ["echo/:id/reply", "GET", "/api/echo/{echo}/reply"],
  ["echo/:id/thread", "POST", "/api/echo/{echo}/thread"],
  ["echo/:id/edit", "GET", "/api/echo/{echo}/edit"],
  ["echo/:id/history", "POST", "/api/echo/{echo}/history"],
  ["echo/:id/repost", "GET", "/api/echo/{echo}/repost"],
  ["echo/:id/reposts", "POST", "/api/echo/{echo}/reposts"],
  ["echo/:id/quote", "GET", "/api/echo/{echo}/quote"],
  ["echo/:id/quotes", "POST", "/api/echo/{echo}/quotes"],
  ["scroll/create", "GET", "/api/scroll/create"],
  ["scroll/all", "POST", "/api/scroll/all"],
  ["scroll/:id", "PUT", "/api/scroll/{scroll}"],
  ["scroll/:id/add-echo", "GET", "/api/scroll/{scroll}/add-echo"],
  ["scroll/:id/remove-echo/:echoId", "POST", "/api/scroll/{scroll}/remove-echo/{echo}"],
  ["scroll/:id/echos", "POST", "/api/scroll/{scroll}/echos"],
  ["scroll/:id/follow", "GET", "/api/scroll/{feed}/follow"],
  ["scroll/preview", "GET", "/api/scroll/preview"],
  ["scroll/:id/why/:echoId", "POST", "/api/scroll/{feed}/why/{echo}"],
  ["scroll/:id/fork", "GET", "/api/scroll/{feed}/fork"],
  ["live", "POST", "/api/live?all=1"],
  ["search/users", "DELETE", "/api/search/users"],
  ["search/echos", "POST", "/api/search/echos"],
  ["community/scrolls/public/:type", "POST", "/api/community/scrolls/public/feed"],
  ["community/tags", "PUT", "/api/community/tags"],
  ["community/echos/popular", "DELETE", "/api/community/echos/popular"],
  ["profile/me", "POST", "/api/profile/me"],
  ["profile/me/export", "POST", "/api/profile/me/export"],
  ["profile/user/:userId", "POST", "/api/profile/user/{user}"],
  ["profile/user/:userId/followers", "POST", "/api/profile/user/{user}/followers"],
  ["profile/user/:userId/following", "DELETE", "/api/profile/user/{user}/following"],
  ["profile/user/:userId/echos", "PATCH", "/api/profile/user/{user}/echos"],
  ["profile/user/:userId/scrolls", "PUT", "/api/profile/user/{user}/scrolls"],
  ["profile/user/:userId/follow", "GET", "/api/profile/user/{user}/follow"],
  ["profile/me/blocks", "POST", "/api/profile/me/blocks"],
  ["profile/me/mutes", "DELETE", "/api/profile/me/mutes"],
  ["profile/me/muted-words", "DELETE", "/api/profile/me/muted-words"],
  ["profile/me/muted-words/:wordId", "GET", "/api/profile/me/muted-words/01aaaaaaaaaaaaaaaaaaaaaaaa"],
  ["profile/user/:userId/block", "PUT", "/api/profile/user/{user}/block"],
  ["profile/user/:userId/mute", "GET", "/api/profile/user/{user}/mute"],
  ["notifications", "POST", "/api/notifications"],
  ["notifications/read", "GET", "/api/notifications/read"],
  ["notifications/unread", "POST", "/api/notifications/unread"],
  ["moderation/queue", "POST", "/api/moderation/queue"],
  ["moderation/log", "DELETE", "/api/moderation/log"],
  ["moderation/case/:id/assign", "GET", "/api/moderation/case/{echo}/assign"],
  ["moderation/case/:id/resolve", "GET", "/api/moderation/case/{echo}/resolve"],
  ["moderation/echo/:id", "GET", "/api/moderation/echo/{echo}"],
  ["moderation/user/:userId", "GET", "/api/moderation/user/{user}"],
  ["moderation/me", "POST", "/api/moderation/me"],
  ["moderation/appeal/:actionId", "GET", "/api/moderation/appeal/01aaaaaaaaaaaaaaaaaaaaaaaa"],
  ["moderation/appeal-suspension", "GET", "/api/moderation/appeal-suspension"],
];
for (const [route, method, path] of wrongMethods) {
  cells(route, method, path, { owner: 405, other: 405, guest: 405 }, { visibilities: path.includes("{scroll}") || path.includes("{feed}") ? ["public"] : ["-"] });
}

/** Every /api route of the one route table (modules/verticals/table.ts), and the catch-all every vertical serves. */
const apiRoutesInRouteConfig = (): string[] => [...apiRoutePaths(), "*"];

type World = {
  f: Fixtures;
  owner: Client;
  other: Client;
  ownerPassword: string;
  scrolls: Record<"public" | "private", { curation: string; feed: string }>;
};
let world: World;

async function must(res: { status: number; text: string; json: Json }, status: number) {
  if (res.status !== status) throw new Error(`setup: expected ${status}, got ${res.status} ${res.text}`);
  return res.json;
}

beforeAll(async () => {
  const [{ client: owner, user }, { client: other }] = await Promise.all([signedUp("mo"), signedUp("mt")]);
  const tag = `mx${Date.now().toString(36)}`;
  const echo = (await must(await owner.post("/api/echo/post", { content: "matrix echo", tags: [tag] }), 201)).echo._id;
  const make = async (type: string, isPrivate: boolean) =>
    (await must(await owner.post("/api/scroll/create", { name: `${type} ${isPrivate}`, type, isPrivate }), 201)).scroll._id as string;
  const scrolls = {
    public: { curation: await make("curation", false), feed: await make("feed", false) },
    private: { curation: await make("curation", true), feed: await make("feed", true) },
  };
  world = { f: { ownerName: user.userName, user: user._id, echo, tag }, owner, other, ownerPassword: PASSWORD, scrolls };
});

/** The client an actor acts through; auth writes get their own session so shared ones survive. */
async function clientFor(row: Row): Promise<Client> {
  if (row.actor === "guest") return new Client();
  if (row.route.startsWith("auth/") && row.method === "POST") {
    // logout revokes its session and login/signup replace the cookie: use a fresh, disposable one
    if (row.route === "auth/logout") return (await signedUp(row.actor === "owner" ? "lo" : "lt")).client;
    const copy = new Client();
    copy.cookie = (row.actor === "owner" ? world.owner : world.other).cookie;
    return copy;
  }
  return row.actor === "owner" ? world.owner : world.other;
}

async function fillPath(row: Row): Promise<string> {
  const { f, owner, scrolls } = world;
  const vis = row.visibility === "private" ? "private" : "public";
  let path = row.path.replaceAll("{user}", f.user).replaceAll("{echo}", f.echo).replaceAll("{tag}", f.tag);
  path = path.replaceAll("{scroll}", scrolls[vis].curation).replaceAll("{feed}", scrolls[vis].feed);
  if (path.includes("{newEcho}")) {
    const created = await must(await owner.post("/api/echo/post", { content: "fresh", tags: [] }), 201);
    path = path.replaceAll("{newEcho}", created.echo._id);
  }
  if (path.includes("{newScroll}")) {
    const created = await must(await owner.post("/api/scroll/create", { name: "fresh", type: "curation", isPrivate: vis === "private" }), 201);
    path = path.replaceAll("{newScroll}", created.scroll._id);
  }
  return path;
}

describe("authorization matrix", () => {
  it("has a row for every /api route in the route table, and no row for a route that is not there", () => {
    const declared = apiRoutesInRouteConfig();
    expect(declared.length).toBeGreaterThan(25);
    const covered = new Set(rows.map((r) => r.route));
    const missing = declared.filter((r) => !covered.has(r));
    expect(missing, `/api routes without a matrix row: ${missing.join(", ")}`).toEqual([]);
    const unknown = [...covered].filter((r) => !declared.includes(r));
    expect(unknown, `matrix rows for routes not in the route table: ${unknown.join(", ")}`).toEqual([]);
    console.log(`authz matrix: ${rows.length} cells over ${declared.length} /api routes`);
  });

  it.each(rows.map((r) => [`${r.method} ${r.path} as ${r.actor}${r.visibility === "-" ? "" : ` (${r.visibility})`} → ${r.expect}`, r] as const))(
    "%s",
    async (_name, row) => {
      const client = await clientFor(row);
      const path = await fillPath(row);
      const body = row.body?.(world.f);
      const res = await client.request(row.method, path, body ?? (row.method === "POST" || row.method === "PATCH" ? {} : undefined));
      expect(res.status, `${row.method} ${path} as ${row.actor}: ${res.text.slice(0, 300)}`).toBe(row.expect);
      if (res.status >= 400) expectErrorShape(res.json);
    },
  );
});
