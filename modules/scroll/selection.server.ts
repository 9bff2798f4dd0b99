import { memoize, readCookie, type AppContext } from "../shared/index.server";
import { listMyScrolls } from "./scroll.server";
import { pickSelected, SELECTED_COOKIE } from "./ui/selection";

/** The viewer's scrolls (once per request) and the selected feed by the spec's restore rule. */
export async function scrollsAndSelection(app: AppContext, viewerId: string, request: Request) {
  const scrolls = await memoize(app, "my-scrolls", () => listMyScrolls(app, viewerId));
  return { scrolls, selectedId: pickSelected(scrolls, readCookie(request, SELECTED_COOKIE)) };
}
