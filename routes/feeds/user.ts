import { webFeedRoute } from "~/modules/echo/index.server";
import { userWebFeed } from "~/modules/profile/index.server";
import type { Route } from "./+types/user";

/** /user/{userName}/feed.atom|.rss|.json, readable without signing in (docs/product-notes.md). */
export const loader = webFeedRoute<Route.LoaderArgs>(({ app, params }) => userWebFeed(app, params.userName));
