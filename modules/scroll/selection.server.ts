import { memoize, type AppContext } from "../shared/index.server";
import { listMyScrolls } from "./scroll.server";
import { pickSelected, SELECTED_COOKIE } from "./ui/selection";

function cookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return null;
}

/** The viewer's scrolls (once per request) and the selected feed by the spec's restore rule. */
export async function scrollsAndSelection(app: AppContext, viewerId: string, request: Request) {
  const scrolls = await memoize(app, "my-scrolls", () => listMyScrolls(app, viewerId));
  return { scrolls, selectedId: pickSelected(scrolls, cookie(request, SELECTED_COOKIE)) };
}
