// Every route of the product, under the vertical Worker that owns it (docs/architecture.md): the
// one table the route config (routes/routes.ts builds React Router's config from it, and a
// vertical's build keeps its own rows), the router Worker (verticalOf: the owner of a path) and the
// client (links into another vertical, speculation rules) read, and whose API paths the contract
// (modules/contract/routes.ts) is typed by. A route added to the product is one row here, under
// its vertical. No imports: node scripts and the route config load it as it is.

export const VERTICALS = ["echos", "scrolls", "community", "people", "account"] as const;
export type Vertical = (typeof VERTICALS)[number];

/**
 * Where a route sits: `api` under /api (resource routes answering JSON); `open` outside every
 * layout (web feeds, redirects, plain pages); `guest` in the guests-only layout (a signed-in user
 * is sent to /); `app` in the signed-in layout (a guest is sent to /login).
 */
export type Place = "api" | "open" | "guest" | "app";
/** A route: its path (relative, "" for the index; under "api/" for `api`), its file in routes/, its id where one file serves two paths. */
export type RouteRow<P extends string = string> = { place: Place; path: P; file: string; id?: string };

type ApiRow<P extends string> = RouteRow<P> & { place: "api" };

// marked free of side effects so that a bundle which uses no row drops the table
const api = /* @__NO_SIDE_EFFECTS__ */ <P extends string>(path: P, file: string): ApiRow<P> => ({ place: "api", path, file: `api/${file}` });
const open = /* @__NO_SIDE_EFFECTS__ */ (path: string, file: string, id?: string): RouteRow => ({ place: "open", path, file, id });
const guest = /* @__NO_SIDE_EFFECTS__ */ (path: string, file: string): RouteRow => ({ place: "guest", path, file: `pages/${file}` });
const app = /* @__NO_SIDE_EFFECTS__ */ (path: string, file: string, id?: string): RouteRow => ({ place: "app", path, file: `pages/${file}`, id });
/** A public stream's web feeds (Atom, RSS, JSON Feed): readable without signing in. */
const webFeeds = /* @__NO_SIDE_EFFECTS__ */ (base: string, file: string, id: string): RouteRow[] =>
  ["atom", "rss", "json"].map((ext) => open(`${base}/feed.${ext}`, `feeds/${file}`, `${id}-${ext}`));

export const ROUTE_TABLE = {
  echos: [
    app("", "home.tsx"),
    app("new", "new.tsx"),
    app("echo/:id", "echo.tsx"),
    app("tag/:tagName", "tag.tsx"),
    open("create-echo", "pages/redirects.ts", "redirect-create-echo"),
    ...webFeeds("tag/:tagName", "tag.ts", "feed-tag"),
    api("echo/all", "echo/all.ts"),
    api("echo/following", "echo/following.ts"),
    api("echo/echo/:id", "echo/one.ts"),
    api("echo/post", "echo/post.ts"),
    api("echo/delete/:id", "echo/delete.ts"),
    api("echo/like/:id", "echo/like.ts"),
    api("echo/tag/:name", "echo/tag.ts"),
    api("echo/:id/report", "echo/report.ts"),
    api("echo/:id/share", "echo/share.ts"),
    api("echo/:id/reply", "echo/reply.ts"),
    api("echo/:id/thread", "echo/thread.ts"),
    api("echo/:id/edit", "echo/edit.ts"),
    api("echo/:id/history", "echo/history.ts"),
    api("echo/:id/repost", "echo/repost.ts"),
    api("echo/:id/reposts", "echo/reposts.ts"),
    api("echo/:id/quote", "echo/quote.ts"),
    api("echo/:id/quotes", "echo/quotes.ts"),
  ],
  scrolls: [
    app("scrolls", "scrolls.tsx"),
    app("scrolls/feeds", "scrolls-feeds.tsx"),
    app("scrolls/curations", "scrolls-curations.tsx"),
    app("scroll/new", "scroll-new.tsx"),
    app("scroll/:id", "scroll.tsx"),
    app("scroll/:id/edit", "scroll-edit.tsx"),
    open("create-scroll", "pages/redirects.ts", "redirect-create-scroll"),
    ...webFeeds("scroll/:id", "scroll.ts", "feed-scroll"),
    api("scroll/create", "scroll/create.ts"),
    api("scroll/all", "scroll/all.ts"),
    api("scroll/preview", "scroll/preview.ts"),
    api("scroll/:id", "scroll/one.ts"),
    api("scroll/:id/add-echo", "scroll/add-echo.ts"),
    api("scroll/:id/remove-echo/:echoId", "scroll/remove-echo.ts"),
    api("scroll/:id/echos", "scroll/echos.ts"),
    api("scroll/:id/follow", "scroll/follow.ts"),
    api("scroll/:id/why/:echoId", "scroll/why.ts"),
    api("scroll/:id/fork", "scroll/fork.ts"),
    // live updates (decision 016): the sockets' objects live in the echos Worker, which posts; the
    // upgrade route sits here, off home's route manifest (its initial JS)
    api("live", "live.ts"),
  ],
  community: [
    app("community", "community.tsx", "community"),
    app("browse-community", "community.tsx", "browse-community"),
    app("browse/scrolls", "browse-scrolls.tsx"),
    app("browse/curation", "browse-curation.tsx"),
    app("browse/tags", "browse-tags.tsx"),
    app("browse/popular", "browse-popular.tsx"),
    api("community/scrolls/public/:type", "community/scrolls.ts"),
    api("community/tags", "community/tags.ts"),
    api("community/echos/popular", "community/popular.ts"),
  ],
  people: [
    app("search", "search.tsx"),
    app("profile", "profile.tsx", "profile-me"),
    app("user/:id", "profile.tsx", "profile-user"),
    app("user/by-name/:userName", "user-by-name.tsx"),
    app("notifications", "notifications.tsx"),
    ...webFeeds("user/:userName", "user.ts", "feed-user"),
    api("search/users", "search.users.ts"),
    api("search/echos", "search.echos.ts"),
    api("profile/me", "profile/me.ts"),
    api("profile/me/export", "profile/export.ts"),
    api("profile/me/blocks", "profile/me.blocks.ts"),
    api("profile/me/mutes", "profile/me.mutes.ts"),
    api("profile/me/muted-words", "profile/me.muted-words.ts"),
    api("profile/me/muted-words/:wordId", "profile/muted-word.ts"),
    api("profile/user/:userId", "profile/user.ts"),
    api("profile/user/:userId/followers", "profile/followers.ts"),
    api("profile/user/:userId/following", "profile/following.ts"),
    api("profile/user/:userId/echos", "profile/echos.ts"),
    api("profile/user/:userId/scrolls", "profile/scrolls.ts"),
    api("profile/user/:userId/follow", "profile/follow.ts"),
    api("profile/user/:userId/block", "profile/block.ts"),
    api("profile/user/:userId/mute", "profile/mute.ts"),
    api("notifications", "notifications/list.ts"),
    api("notifications/read", "notifications/read.ts"),
    api("notifications/unread", "notifications/unread.ts"),
  ],
  account: [
    guest("login", "login.tsx"),
    guest("signup", "signup.tsx"),
    open("logout", "pages/logout.ts"),
    app("settings", "settings.tsx"),
    // the API reference for developers: made from the OpenAPI document, open to guests
    open("developers", "pages/developers.ts"),
    api("health", "health.ts"),
    api("openapi.json", "openapi.ts"),
    api("auth/me", "auth.me.ts"),
    api("auth/signup", "auth.signup.ts"),
    api("auth/login", "auth.login.ts"),
    api("auth/logout", "auth.logout.ts"),
    api("auth/password", "auth.password.ts"),
    // moderation (issue 32, decision 029): moderators' queue, log and actions; the user's notices and appeals
    app("moderation", "moderation.tsx"),
    app("account-status", "account-status.tsx"),
    guest("appeal", "appeal.tsx"),
    api("moderation/queue", "moderation/queue.ts"),
    api("moderation/case/:id/assign", "moderation/case.assign.ts"),
    api("moderation/case/:id/resolve", "moderation/case.resolve.ts"),
    api("moderation/log", "moderation/log.ts"),
    api("moderation/echo/:id", "moderation/echo.ts"),
    api("moderation/user/:userId", "moderation/user.ts"),
    api("moderation/me", "moderation/me.ts"),
    api("moderation/appeal/:actionId", "moderation/appeal.ts"),
    api("moderation/appeal-suspension", "moderation/appeal-suspension.ts"),
  ],
} as const satisfies Record<Vertical, readonly RouteRow[]>;

/**
 * The catch-alls, which every vertical serves so that each answers its own 404s (a page's and the
 * API's): in no vertical's rows.
 */
export const CATCH_ALLS = { api: api("*", "not-found.ts"), app: app("*", "not-found.tsx") } as const;

/** An /api path as the table spells it (under "api/", without it): what the contract's operations name. */
export type ApiRoutePath = Extract<(typeof ROUTE_TABLE)[keyof typeof ROUTE_TABLE][number], { place: "api" }>["path"];

/** Every /api route path of the table, catch-all left out (its 404s are no route). */
export const apiRoutePaths = (): ApiRoutePath[] =>
  VERTICALS.flatMap((v) => ROUTE_TABLE[v].flatMap((row: RouteRow) => (row.place === "api" ? [row.path as ApiRoutePath] : [])));
