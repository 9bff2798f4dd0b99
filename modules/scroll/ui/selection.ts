import { useCallback } from "react";
import { useNavigate } from "react-router";
import type { Scroll } from "../schema";

/** Spec §3 local storage: the selected scroll id. Mirrored in a cookie so the server renders it. */
export const SELECTED_KEY = "selectedScrollId";
export const SELECTED_COOKIE = "echo_scroll";
export const SELECTED_COOKIE_MAX_AGE = 365 * 24 * 3600;

/**
 * A choice in the selection cookie's encoding, React Router's cookie encoding (JSON, base64, then
 * percent-encoded), which the server's `selectionCookie` parses. Choices are ASCII (ids, "all",
 * "following"), so plain `btoa` is that encoding; the server test pins the two together.
 */
export function selectionCookieValue(id: string): string {
  return encodeURIComponent(btoa(JSON.stringify(id)));
}

/**
 * The stored choice "All Echos" (no feed): a user with feeds can still pick the unfiltered home.
 * It is no scroll id, so every lookup of the selected scroll finds none and home shows all echos.
 */
export const ALL_ECHOS = "all";

/**
 * The stored choice "Following" (issue 18): echos by the people the viewer follows. Offered once
 * the viewer follows anyone (or chose it before), and then the default where nothing else was chosen.
 */
export const FOLLOWING = "following";

/**
 * Spec §4: restore the stored scroll only if it exists and is a feed, else the first feed; an
 * explicit "All Echos" choice is kept while there is something else to choose (feeds, or
 * Following); "Following" is kept once chosen, and is the default once the viewer follows anyone.
 */
export function pickSelected(
  scrolls: Pick<Scroll, "_id" | "type">[],
  storedId: string | null,
  followsAnyone = false,
): string | null {
  const feeds = scrolls.filter((s) => s.type === "feed");
  if (storedId === FOLLOWING) return FOLLOWING;
  if (storedId === ALL_ECHOS && (feeds.length > 0 || followsAnyone)) return ALL_ECHOS;
  if (storedId && feeds.some((s) => s._id === storedId)) return storedId;
  if (followsAnyone) return FOLLOWING;
  return feeds[0]?._id ?? null;
}

export function readStoredSelection(): string | null {
  try {
    return localStorage.getItem(SELECTED_KEY);
  } catch {
    return null;
  }
}

/** Store the choice (a feed id, ALL_ECHOS or FOLLOWING); null forgets it, so the first feed applies again. */
export function storeSelection(id: string | null) {
  try {
    if (id) localStorage.setItem(SELECTED_KEY, id);
    else localStorage.removeItem(SELECTED_KEY);
  } catch {
    // storage unavailable: the cookie still carries the choice
  }
  document.cookie = id
    ? `${SELECTED_COOKIE}=${selectionCookieValue(id)}; Path=/; SameSite=Lax; Max-Age=${SELECTED_COOKIE_MAX_AGE}`
    : `${SELECTED_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}

/** Choose a feed (or ALL_ECHOS, FOLLOWING) and show it on home: the picker's and home's way to switch. */
export function useChooseFeed(): (id: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (id: string) => {
      storeSelection(id);
      navigate("/");
    },
    [navigate],
  );
}
