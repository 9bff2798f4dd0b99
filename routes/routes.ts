import { type RouteConfig, type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";
import { isCatchAll, isVertical, verticalOf } from "../modules/verticals/index";

const all = [
  // Public HTTP API (spec §7), resource routes answering JSON.
  ...prefix("api", [
    route("health", "api/health.ts"),
    route("openapi.json", "api/openapi.ts"),
    route("auth/me", "api/auth.me.ts"),
    route("auth/signup", "api/auth.signup.ts"),
    route("auth/login", "api/auth.login.ts"),
    route("auth/logout", "api/auth.logout.ts"),
    route("auth/password", "api/auth.password.ts"),
    route("echo/all", "api/echo/all.ts"),
    route("echo/following", "api/echo/following.ts"),
    route("echo/echo/:id", "api/echo/one.ts"),
    route("echo/post", "api/echo/post.ts"),
    route("echo/delete/:id", "api/echo/delete.ts"),
    route("echo/like/:id", "api/echo/like.ts"),
    route("echo/tag/:name", "api/echo/tag.ts"),
    route("echo/:id/reply", "api/echo/reply.ts"),
    route("echo/:id/thread", "api/echo/thread.ts"),
    route("echo/:id/report", "api/echo/report.ts"),
    route("echo/:id/share", "api/echo/share.ts"),
    route("echo/:id/edit", "api/echo/edit.ts"),
    route("echo/:id/history", "api/echo/history.ts"),
    route("scroll/create", "api/scroll/create.ts"),
    route("scroll/all", "api/scroll/all.ts"),
    route("scroll/preview", "api/scroll/preview.ts"),
    route("scroll/:id", "api/scroll/one.ts"),
    route("scroll/:id/add-echo", "api/scroll/add-echo.ts"),
    route("scroll/:id/remove-echo/:echoId", "api/scroll/remove-echo.ts"),
    route("scroll/:id/echos", "api/scroll/echos.ts"),
    route("scroll/:id/follow", "api/scroll/follow.ts"),
    route("scroll/:id/why/:echoId", "api/scroll/why.ts"),
    route("scroll/:id/fork", "api/scroll/fork.ts"),
    route("live", "api/live.ts"),
    route("search/users", "api/search.users.ts"),
    route("search/echos", "api/search.echos.ts"),
    route("community/scrolls/public/:type", "api/community/scrolls.ts"),
    route("community/tags", "api/community/tags.ts"),
    route("community/echos/popular", "api/community/popular.ts"),
    route("profile/me", "api/profile/me.ts"),
    route("profile/me/export", "api/profile/export.ts"),
    route("profile/me/blocks", "api/profile/me.blocks.ts"),
    route("profile/me/mutes", "api/profile/me.mutes.ts"),
    route("profile/user/:userId", "api/profile/user.ts"),
    route("profile/user/:userId/followers", "api/profile/followers.ts"),
    route("profile/user/:userId/following", "api/profile/following.ts"),
    route("profile/user/:userId/echos", "api/profile/echos.ts"),
    route("profile/user/:userId/scrolls", "api/profile/scrolls.ts"),
    route("profile/user/:userId/follow", "api/profile/follow.ts"),
    route("profile/user/:userId/block", "api/profile/block.ts"),
    route("profile/user/:userId/mute", "api/profile/mute.ts"),
    route("notifications", "api/notifications/list.ts"),
    route("notifications/read", "api/notifications/read.ts"),
    route("notifications/unread", "api/notifications/unread.ts"),
    route("*", "api/not-found.ts"),
  ]),
  // Web feeds of public streams (Atom, RSS, JSON Feed): readable without signing in.
  ...["atom", "rss", "json"].flatMap((ext) => [
    route(`scroll/:id/feed.${ext}`, "feeds/scroll.ts", { id: `feed-scroll-${ext}` }),
    route(`tag/:tagName/feed.${ext}`, "feeds/tag.ts", { id: `feed-tag-${ext}` }),
    route(`user/:userName/feed.${ext}`, "feeds/user.ts", { id: `feed-user-${ext}` }),
  ]),
  route("logout", "pages/logout.ts"),
  // The API reference for developers: plain HTML made from the OpenAPI document, open to guests.
  route("developers", "pages/developers.ts"),
  route("create-echo", "pages/redirects.ts", { id: "redirect-create-echo" }),
  route("create-scroll", "pages/redirects.ts", { id: "redirect-create-scroll" }),

  // Guests only: a signed-in user is sent to /.
  layout("pages/guest-layout.tsx", [
    route("login", "pages/login.tsx"),
    route("signup", "pages/signup.tsx"),
  ]),

  // Everything else needs a signed-in user: a guest is sent to /login.
  layout("pages/app-layout.tsx", [
    index("pages/home.tsx"),
    route("new", "pages/new.tsx"),
    route("echo/:id", "pages/echo.tsx"),
    route("tag/:tagName", "pages/tag.tsx"),
    route("community", "pages/community.tsx", { id: "community" }),
    route("browse-community", "pages/community.tsx", { id: "browse-community" }),
    route("browse/scrolls", "pages/browse-scrolls.tsx"),
    route("browse/curation", "pages/browse-curation.tsx"),
    route("browse/tags", "pages/browse-tags.tsx"),
    route("browse/popular", "pages/browse-popular.tsx"),
    route("search", "pages/search.tsx"),
    route("profile", "pages/profile.tsx", { id: "profile-me" }),
    route("user/:id", "pages/profile.tsx", { id: "profile-user" }),
    route("user/by-name/:userName", "pages/user-by-name.tsx"),
    route("scrolls", "pages/scrolls.tsx"),
    route("scrolls/feeds", "pages/scrolls-feeds.tsx"),
    route("scrolls/curations", "pages/scrolls-curations.tsx"),
    route("scroll/new", "pages/scroll-new.tsx"),
    route("scroll/:id", "pages/scroll.tsx"),
    route("scroll/:id/edit", "pages/scroll-edit.tsx"),
    route("settings", "pages/settings.tsx"),
    route("notifications", "pages/notifications.tsx"),
    route("*", "pages/not-found.tsx"),
  ]),
] satisfies RouteConfig;

/**
 * A vertical's build (VERTICAL=echos …, see scripts/build.mjs) keeps the routes that
 * modules/verticals says it owns, the catch-alls (each vertical answers its own 404s) and the
 * layouts above them. Without VERTICAL (`npm run dev`) every route is served by one app.
 */
function ownRoutes(entries: RouteConfigEntry[], vertical: string, parent = ""): RouteConfigEntry[] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    if (entry.children) {
      const children = ownRoutes(entry.children, vertical, path);
      return children.length ? [{ ...entry, children }] : [];
    }
    const own = isCatchAll(path) || verticalOf(path || "/") === vertical;
    return own ? [entry] : [];
  });
}

const vertical = process.env.VERTICAL;
if (vertical && !isVertical(vertical)) throw new Error(`VERTICAL=${vertical} is not one of modules/verticals' VERTICALS`);
export default (vertical ? ownRoutes(all, vertical) : all) satisfies RouteConfig;
