import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // Public HTTP API (spec §7), resource routes answering JSON.
  ...prefix("api", [
    route("health", "api/health.ts"),
    route("auth/me", "api/auth.me.ts"),
    route("auth/signup", "api/auth.signup.ts"),
    route("auth/login", "api/auth.login.ts"),
    route("auth/logout", "api/auth.logout.ts"),
    route("*", "api/not-found.ts"),
  ]),
  route("logout", "pages/logout.ts"),

  // Guests only: a signed-in user is sent to /.
  layout("pages/guest-layout.tsx", [
    route("login", "pages/login.tsx"),
    route("signup", "pages/signup.tsx"),
  ]),

  // Everything else needs a signed-in user: a guest is sent to /login.
  layout("pages/app-layout.tsx", [
    index("pages/home.tsx"),
    route("settings", "pages/settings.tsx"),
    route("*", "pages/not-found.tsx"),
  ]),
] satisfies RouteConfig;
