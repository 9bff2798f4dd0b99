import { webFeedRoute } from "~/modules/echo/index.server";
import { scrollWebFeed } from "~/modules/scroll/index.server";
import type { Route } from "./+types/scroll";

/** /scroll/{id}/feed.atom|.rss|.json of a public scroll, readable without signing in (docs/product-notes.md). */
export const loader = webFeedRoute<Route.LoaderArgs>(({ app, params }) => scrollWebFeed(app, params.id));
