import { tagWebFeed, webFeedRoute } from "~/modules/echo/index.server";
import type { Route } from "./+types/tag";

/** /tag/{name}/feed.atom|.rss|.json, readable without signing in (docs/product-notes.md). */
export const loader = webFeedRoute<Route.LoaderArgs>(({ app, params }) => tagWebFeed(app, params.tagName));
