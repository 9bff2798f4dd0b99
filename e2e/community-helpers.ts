// Helpers for the community, browse, profile and search specs. Data is seeded through the public
// /api with uniquely named users, tags and scrolls: the server and its data are shared with the
// other specs (and earlier runs), so tests only assert about their own items.
// Users: ./helpers (apiUser, signedInPage); scrolls: ./scroll-helpers (createScroll).
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { unique } from "./helpers";

/** Run the ranking pass (the cron of wrangler.toml) now; community pages read what it publishes. */
export async function rank(request: APIRequestContext): Promise<void> {
  const res = await request.get(`/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
  expect(res.ok(), await res.text()).toBe(true);
}

/** A unique stem of `length` characters (letters and digits), valid inside tags and names. */
export function stem(prefix: string, length = 22): string {
  return unique(prefix).slice(0, length).toLowerCase();
}

/** Names shown by the scroll cards on the page, in document order. */
export function scrollCardNames(scope: Page | Locator): Promise<string[]> {
  return scope.locator('[data-testid="scroll-card"] .scroll-card-name').allTextContents();
}

/** The integer shown in one of the profile's counts (Echos, Scrolls, Followers, Following). */
export function profileCount(page: Page, label: string): Locator {
  return page.locator(".profile-counts > div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd");
}
