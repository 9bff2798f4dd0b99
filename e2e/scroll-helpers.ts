// Helpers for the scroll specs (and any spec that needs a scroll): seeding scrolls through the
// public /api and finding the scroll screens' parts. Built on ./helpers and ./echo-helpers.
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { card } from "./echo-helpers";
import { unique, type User } from "./helpers";

export type FeedConfigInput = {
  tagMatchType?: "all" | "any";
  includedTags?: string[];
  excludedTags?: string[];
  authors?: string[];
  sortBy?: "newestFirst" | "oldestFirst" | "mostLiked";
  sortTimeRange?: "1day" | "1month" | "1year" | "allTime";
  excludeLikedEchos?: boolean;
  dateRange?: { startDate: string | null; endDate: string | null } | null;
};
export type Scroll = {
  _id: string;
  name: string;
  description: string;
  type: "feed" | "curation";
  isPrivate: boolean;
  creator: User;
  isFollowing: boolean;
  followersCount: number;
  echosCount: number;
  feedConfig: {
    tagMatchType: "all" | "any";
    includedTags: { _id: string; name: string }[];
    excludedTags: { _id: string; name: string }[];
    authors: User[];
    sortBy: string;
    sortTimeRange: string;
    excludeLikedEchos: boolean;
    dateRange: { startDate: string | null; endDate: string | null } | null;
  } | null;
};

/** Tags as the API returns them (`{ _id, name }`, the id being the normalised name). */
export const tagRefs = (...names: string[]) => names.map((name) => ({ _id: name, name }));

/** A tag no other test uses: lower-case letters and digits, at most 30 characters. */
export const uniqueTag = (prefix = "sc") => unique(prefix).toLowerCase();

export async function createScroll(
  request: APIRequestContext,
  body: { name: string; type: "feed" | "curation"; description?: string; isPrivate?: boolean; feedConfig?: FeedConfigInput },
): Promise<Scroll> {
  const res = await request.post("/api/scroll/create", {
    data: { description: "", isPrivate: false, ...body },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { scroll: Scroll }).scroll;
}

export const createFeed = (request: APIRequestContext, name: string, feedConfig: FeedConfigInput = {}, extra: { isPrivate?: boolean; description?: string } = {}) =>
  createScroll(request, { name, type: "feed", feedConfig, ...extra });

export const createCuration = (request: APIRequestContext, name: string, extra: { isPrivate?: boolean; description?: string } = {}) =>
  createScroll(request, { name, type: "curation", ...extra });

export async function getScroll(request: APIRequestContext, id: string): Promise<Scroll> {
  const res = await request.get(`/api/scroll/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { scroll: Scroll }).scroll;
}

export async function deleteScrollViaApi(request: APIRequestContext, id: string): Promise<void> {
  const res = await request.delete(`/api/scroll/${id}`);
  expect(res.status(), await res.text()).toBe(200);
}

export async function followScroll(request: APIRequestContext, id: string): Promise<void> {
  const res = await request.post(`/api/scroll/${id}/follow`);
  expect(res.status(), await res.text()).toBe(200);
}

export async function addEchoToScroll(request: APIRequestContext, scrollId: string, echoId: string): Promise<void> {
  const res = await request.post(`/api/scroll/${scrollId}/add-echo`, { data: { echoId } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The sidebar's feed picker (listbox 'Feed scrolls') and its options. */
export const picker = (page: Page): Locator => page.getByRole("complementary", { name: "Sidebar" }).getByRole("listbox", { name: "Feed scrolls" });
export const pickerOptions = (page: Page): Locator => picker(page).getByRole("option");

/** The right panel (large screens). */
export const rightPanel = (page: Page): Locator => page.getByRole("complementary", { name: "Your scrolls" });

/** The main column. */
export const main = (page: Page): Locator => page.getByRole("main");

/** A scroll card (lists, overview) by the scroll's exact name. */
export function scrollCard(scope: Page | Locator, name: string): Locator {
  const page = "page" in scope ? scope.page() : scope;
  return scope.getByTestId("scroll-card").filter({ has: page.getByRole("link", { name, exact: true }) });
}

/** Names on the scroll cards inside a scope, in document order. */
export function cardNames(scope: Locator): Promise<string[]> {
  return scope.locator(".scroll-card-name").allTextContents();
}

/** A scroll list group on /scrolls ('Feed', 'Curation', 'Feeds', 'Curations') inside a section. */
export function group(section: Locator, title: string): Locator {
  return section.locator("section.scroll-group").filter({ has: section.page().getByRole("heading", { name: new RegExp(`^${title} \\d+$`) }) });
}

/** The /scrolls overview sections 'Followed Scrolls' and 'My Scrolls'. */
export function overviewSection(page: Page, title: "Followed Scrolls" | "My Scrolls"): Locator {
  return main(page).locator("section.card").filter({ has: page.getByRole("heading", { name: title, exact: true, level: 2 }) });
}

/** The selected scroll id in local storage (spec §3). */
export const storedSelection = (page: Page) => page.evaluate(() => localStorage.getItem("selectedScrollId"));

/** A date as YYYY-MM-DD (UTC) shifted by whole days from now. */
export function isoDay(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Accept the next window.confirm and return its message. Call before the click that opens it;
 * await the returned promise after.
 */
export function acceptNextConfirm(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", async (dialog) => {
      const message = dialog.message();
      if (accept) await dialog.accept();
      else await dialog.dismiss();
      resolve(message);
    });
  });
}

/**
 * Bring an echo's card into view on an infinite, virtualised list ('/'): other tests post to
 * the same server in parallel, so an echo posted a moment ago may already sit below page one.
 */
export async function scrollToCard(page: Page, id: string): Promise<Locator> {
  const target = card(page, id);
  for (let i = 0; i < 100 && (await target.count()) === 0; i++) {
    await page.mouse.wheel(0, 700);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await target.scrollIntoViewIfNeeded();
  return target;
}
