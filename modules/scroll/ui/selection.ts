import type { Scroll } from "../schema";

/** Spec §3 local storage: the selected scroll id. Mirrored in a cookie so the server renders it. */
export const SELECTED_KEY = "selectedScrollId";
export const SELECTED_COOKIE = "echo_scroll";

/** Spec §4: restore the stored scroll only if it exists and is a feed, else the first feed. */
export function pickSelected(scrolls: Pick<Scroll, "_id" | "type">[], storedId: string | null): string | null {
  const feeds = scrolls.filter((s) => s.type === "feed");
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
