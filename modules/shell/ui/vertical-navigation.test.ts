// Navigation across verticals under version skew (decision 011): a path this build has no page for
// is left to the server, never answered by this build's own "not found".
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { hasOwnRoute, isOtherVertical } from "./vertical-navigation";

// the shape of a vertical's client routes: root → app layout → its pages and the 404 catch-all
const echosRoutes: RouteObject[] = [
  {
    id: "root",
    path: "",
    children: [
      {
        id: "pages/app-layout",
        children: [
          { id: "pages/home", index: true },
          { id: "pages/echo", path: "echo/:id" },
          { id: "pages/tag", path: "tag/:tagName" },
          { id: "pages/not-found", path: "*" },
        ],
      },
    ],
  },
];

describe("hasOwnRoute", () => {
  it("knows the build's own pages, with queries and hashes", () => {
    for (const path of ["/", "/echo/01abc", "/tag/coffee?order=likes", "/echo/01abc#top"]) expect(hasOwnRoute(echosRoutes, path), path).toBe(true);
  });

  it("does not count the catch-all: a path only the 404 matches is another build's (or nobody's)", () => {
    // e.g. a page added to another vertical after this one was built: this build's table still
    // sends it to the default vertical, so isOtherVertical alone would keep it client-side
    for (const path of ["/notifications-v2", "/echo/01abc/replies", "/brand-new"]) expect(hasOwnRoute(echosRoutes, path), path).toBe(false);
    expect(isOtherVertical("/brand-new", "echos")).toBe(false);
  });
});
