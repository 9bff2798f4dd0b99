import { createCookie } from "react-router";
import * as v from "valibot";
import { ID_PATTERN } from "../shared/index";
import { memoize, readCookie, type AppContext } from "../shared/index.server";
import { findMyScroll, listMyScrolls } from "./lists.server";
import { ALL_ECHOS, FOLLOWING, pickSelected, SELECTED_COOKIE, SELECTED_COOKIE_MAX_AGE } from "./ui/selection";

/**
 * The scroll selection's cookie (decision 011's contract). The browser writes it
 * (`storeSelection`, in this cookie's encoding); the server only reads it.
 */
export const selectionCookie = createCookie(SELECTED_COOKIE, { path: "/", sameSite: "lax", maxAge: SELECTED_COOKIE_MAX_AGE });

/** A stored choice: a scroll id, "all" or "following"; anything else is no choice. */
const StoredSelectionSchema = v.union([v.literal(ALL_ECHOS), v.literal(FOLLOWING), v.pipe(v.string(), v.regex(ID_PATTERN))]);

/** The choice stored in the browser's cookie (decodings are kept per Cookie header), or null. */
export const storedSelection = (request: Request) => readCookie(request, selectionCookie, StoredSelectionSchema);

/**
 * The first page of the viewer's scrolls (once per request) and the selected feed by the spec's
 * restore rule (Following counts once the viewer follows anyone: `followsAnyone`, which the
 * session check of the same batch answers). The stored feed is looked up by id in the same D1
 * batch, so a feed beyond the first page stays selected without loading every scroll
 * (docs/scaling.md).
 */
export async function scrollsAndSelection(app: AppContext, viewerId: string, request: Request, followsAnyone: Promise<boolean>) {
  const stored = await storedSelection(request);
  const [page, storedScroll, following] = await memoize(app, "my-scrolls", () =>
    Promise.all([
      listMyScrolls(app, viewerId),
      stored && stored !== ALL_ECHOS && stored !== FOLLOWING ? findMyScroll(app, viewerId, stored) : Promise.resolve(null),
      followsAnyone,
    ]),
  );
  const known =
    storedScroll && !page.scrolls.some((s) => s._id === storedScroll._id) ? [...page.scrolls, storedScroll] : page.scrolls;
  const selectedId = pickSelected(known, stored, following);
  const selected = known.find((s) => s._id === selectedId) ?? null;
  return { scrolls: page.scrolls, nextCursor: page.nextCursor, selected, selectedId, followsAnyone: following };
}
