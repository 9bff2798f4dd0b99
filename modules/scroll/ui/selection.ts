import { useCallback } from "react";
import { useNavigate } from "react-router";
import type { Scroll } from "../schema";

/** Spec §3 local storage: the selected scroll id. Mirrored in a cookie so the server renders it. */
export const SELECTED_KEY = "selectedScrollId";
export const SELECTED_COOKIE = "echo_scroll";

/**
 * The stored choice "All Echos" (no feed): a user with feeds can still pick the unfiltered home.
 * It is no scroll id, so every lookup of the selected scroll finds none and home shows all echos.
 */
export const ALL_ECHOS = "all";

/**
 * Spec §4: restore the stored scroll only if it exists and is a feed, else the first feed; an
 * explicit "All Echos" choice is kept while the user has feeds to choose from.
 */
export function pickSelected(scrolls: Pick<Scroll, "_id" | "type">[], storedId: string | null): string | null {
  const feeds = scrolls.filter((s) => s.type === "feed");
  if (storedId === ALL_ECHOS && feeds.length > 0) return ALL_ECHOS;
  if (storedId && feeds.some((s) => s._id === storedId)) return storedId;
  return feeds[0]?._id ?? null;
}

export function readStoredSelection(): string | null {
  try {
    return localStorage.getItem(SELECTED_KEY);
  } catch {
    return null;
  }
}

/** Store the choice (a feed id or ALL_ECHOS); null forgets it, so the first feed applies again. */
export function storeSelection(id: string | null) {
  try {
    if (id) localStorage.setItem(SELECTED_KEY, id);
    else localStorage.removeItem(SELECTED_KEY);
  } catch {
    // storage unavailable: the cookie still carries the choice
  }
  document.cookie = id
    ? `${SELECTED_COOKIE}=${encodeURIComponent(id)}; Path=/; SameSite=Lax; Max-Age=31536000`
    : `${SELECTED_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}

/** Choose a feed (or ALL_ECHOS) and show it on home: the picker's and home's way to switch. */
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
