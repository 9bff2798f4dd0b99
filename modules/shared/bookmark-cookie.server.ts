// The D1 bookmark cookie (docs/decisions/017-read-replicas.md): the position in the database
// this browser last saw, so its next request reads from a replica at least that fresh and a
// user always reads their own writes. Written and read through React Router's cookie API.
import { createCookie } from "react-router";
import * as v from "valibot";
import { readCookie } from "./cookies.server";
import { isBookmark } from "./replicas.server";

const BookmarkSchema = v.custom<string>(isBookmark);

/**
 * A bookmark only has to outlive replication lag (after that every replica is past it); a
 * browser that lost it reads at the primary once if signed in (replicas.server.ts), so a day is
 * plenty and keeps a stale one from lingering.
 */
const MAX_AGE_SECONDS = 24 * 3600;

const options = { path: "/", httpOnly: true, sameSite: "lax", maxAge: MAX_AGE_SECONDS } as const;
// on https the __Host- prefix keeps a sibling subdomain from planting one, like the session cookie
const plain = createCookie("echo_d1b", options);
const hostOnly = createCookie("__Host-echo_d1b", { ...options, secure: true });

const cookieFor = (secure: boolean) => (secure ? hostOnly : plain);

/** The request's bookmark, or null when it has none or one that is not a D1 bookmark. */
export function readBookmark(request: Request, secure: boolean): Promise<string | null> {
  // a value that does not decode is no bookmark (issue 12: never a 500)
  return readCookie(request, cookieFor(secure), BookmarkSchema);
}

/** The Set-Cookie header that hands the browser its new bookmark. */
export function bookmarkCookie(bookmark: string, secure: boolean): Promise<string> {
  return cookieFor(secure).serialize(bookmark);
}
