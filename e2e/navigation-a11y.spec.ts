// Keyboard users and slow or failing navigations: the skip link, focus on the new page's
// heading, the progress bar, and errors that stay inside the shell with a Retry.
// Client-side navigations happen inside one vertical (docs/decisions/011): these go from /scrolls
// to My Feeds, both the scrolls vertical's; e2e/verticals.spec.ts covers navigations across.
import { expect, test, type Page } from "@playwright/test";
import { expectPath, open, signedInPage } from "./helpers";

const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName ?? "");

test("the skip link is the first tab stop and moves focus into main", async ({ page }) => {
  await signedInPage(page);
  await open(page, "/scrolls");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  // the next Tab lands inside main, past the top bar and the sidebar
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main")))).toBe(true);
});

test("the skip link is there on the guest pages too", async ({ page }) => {
  await open(page, "/login");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to main content" })).toBeFocused();
});

test("focus stays put on first load and moves to the new page's h1 after a client-side navigation", async ({ page }) => {
  await signedInPage(page);
  await open(page, "/scrolls");
  expect(await focusedTag(page)).toBe("BODY");

  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "My Feeds", exact: true }).click();
  await expectPath(page, "/scrolls/feeds");
  await expect(page.getByRole("heading", { name: "My Feeds", level: 1 })).toBeFocused();

  await page.goBack();
  await expectPath(page, "/scrolls");
  // the page's heading, or main itself when the page has none
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.matches("main#main, main#main h1") ?? false))
    .toBe(true);
});

test("a slow navigation shows a progress bar with a status, gone once the page arrives", async ({ page }) => {
  await signedInPage(page);
  await open(page, "/scrolls");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/scrolls/feeds.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "My Feeds", exact: true }).click();
  await expect(page.locator(".nav-progress")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toHaveCount(1);
  release();
  await expect(page.getByRole("heading", { name: "My Feeds", level: 1 })).toBeVisible();
  await expect(page.locator(".nav-progress")).toHaveCount(0);
});

test("a navigation that ends within the delay shows no progress bar", async ({ page }) => {
  // The page's clock is ours: its 150 ms timer cannot fire while the navigation is under way, so
  // the test holds on a busy machine too; then the clock runs on, and a bar the finished
  // navigation failed to cancel would show.
  await page.clock.install();
  await signedInPage(page);
  await open(page, "/scrolls");
  await page.evaluate(() => {
    (window as unknown as { sawBar: boolean }).sawBar = false;
    new MutationObserver(() => {
      if (document.querySelector(".nav-progress")) (window as unknown as { sawBar: boolean }).sawBar = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  // time stands still from here (a jump ahead of wherever the page's clock has got to)
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "My Feeds", exact: true }).click();
  await expect(page.getByRole("heading", { name: "My Feeds", level: 1 })).toBeVisible();
  await page.clock.runFor(2_000);
  await expect(page.locator(".nav-progress")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { sawBar: boolean }).sawBar)).toBe(false);
});

test("a failed navigation shows its error inside the shell, without the splash, and Retry loads the page", async ({ page }) => {
  await signedInPage(page);
  await open(page, "/scrolls");
  let fail = true;
  await page.route("**/scrolls/feeds.data*", (route) => (fail ? route.abort("connectionreset") : route.continue()));
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "My Feeds", exact: true }).click();

  const heading = page.getByRole("heading", { name: "Something went wrong", level: 1 });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page.getByText("This page couldn't be loaded. Check your connection and try again.")).toBeVisible();
  // still inside the shell: sidebar and top bar stay, the splash does not come back
  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeAttached();
  await expect(page.getByRole("link", { name: "Echo", exact: true })).toBeVisible();
  await expect(page.locator("#splash")).toBeHidden();

  fail = false;
  const retry = page.getByRole("button", { name: "Retry" });
  await retry.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "My Feeds", level: 1 })).toBeVisible();
  await expect(heading).toHaveCount(0);
});
