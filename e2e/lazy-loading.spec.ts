// Issue 6's JS budget keeps the home route's initial JavaScript small by loading the feed's
// virtualiser, toasts and dialogs later (docs/decisions/009-initial-javascript.md). Here: the home
// screen hydrates and works on its initial JS alone; the virtualiser, requested after hydration,
// switches on once a second page has loaded, and keeps the cards on screen mounted (the same DOM
// nodes) and where they were, even when it arrives late.
import { expect, test } from "@playwright/test";
import { card, likeButton, postEcho } from "./echo-helpers";
import { signedInPage, waitForApp } from "./helpers";

const cards = "[data-testid=echo-card]";

test("home hydrates on its initial JS; the late virtualiser keeps the on-screen cards mounted and in place", async ({ page }) => {
  await signedInPage(page, "lz");
  // two pages at least, of uneven heights
  for (let i = 0; i < 25; i++) await postEcho(page.request, `lazy ${i} `.repeat(1 + (i % 7) * 8).trim());

  // what the server's HTML loads (module scripts and modulepreloads, under the vertical's asset
  // prefix /_v/echos/); hold every other chunk
  const html = await (await page.request.get("/")).text();
  const initial = new Set(html.match(/(?:\/_v\/[a-z]+)?\/assets\/[^"'\s]+\.js/g));
  const held: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/*.js", async (route) => {
    const file = new URL(route.request().url()).pathname;
    if (!initial.has(file)) {
      held.push(file);
      await gate;
    }
    await route.continue();
  });

  await page.goto("/", { waitUntil: "domcontentloaded" });
  await waitForApp(page);
  const first = page.locator(cards).first();
  await likeButton(first).click();
  await expect(likeButton(first)).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => held.length, { message: "the virtualiser is requested after hydration" }).toBeGreaterThan(0);

  // the second page loads while the virtualiser is still held: all its rows join the DOM
  await expect(page.locator(cards)).toHaveCount(20);
  await page.locator(".feed-sentinel").scrollIntoViewIfNeeded();
  await expect.poll(() => page.locator(cards).count()).toBeGreaterThan(20);
  const loaded = await page.locator(cards).count();
  await page.evaluate(() => window.scrollTo(0, 1500));
  await expect.poll(() => page.evaluate(() => scrollY)).toBe(1500);
  const before = await page.evaluate((selector) =>
    [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((c) => c.getBoundingClientRect().bottom > 0 && c.getBoundingClientRect().top < innerHeight)
      .map((c) => {
        (c as HTMLElement & { beforeVirtualiser?: boolean }).beforeVirtualiser = true;
        return { id: c.dataset.echoId!, top: Math.round(c.getBoundingClientRect().top) };
      }),
  cards);
  expect(before.length).toBeGreaterThan(0);

  release();
  // virtualised: only the rows near the viewport stay in the DOM
  await expect.poll(() => page.locator(cards).count()).toBeLessThan(loaded);
  expect(await page.evaluate(() => scrollY)).toBe(1500);
  for (const { id, top } of before) {
    const state = await card(page, id).evaluate((c) => ({
      same: Boolean((c as HTMLElement & { beforeVirtualiser?: boolean }).beforeVirtualiser),
      top: Math.round(c.getBoundingClientRect().top),
    }));
    expect(state, `card ${id}`).toEqual({ same: true, top });
  }
});
