// Notifications (issue 18): what others do to your things reaches the bell in the top bar and the
// /notifications page, grouped, newest first; "Mark all as read" clears the count. Seeded through
// the public /api; the bell is reached and opened from the keyboard; axe in both themes.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { likeEcho, postEcho } from "./echo-helpers";
import { apiUser, expectPath, open, signedInPage, useTheme } from "./helpers";
import { createCuration, followScroll } from "./scroll-helpers";

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

test("others' likes, follows and mentions reach the bell and the page, grouped; mark all as read", async ({ page, playwright, baseURL }) => {
  await useTheme(page, "light");
  const alice = await signedInPage(page, "nf");
  const echo = await postEcho(page.request, "Sunrise over the bay this morning");
  const scroll = await createCuration(page.request, "Bay photos");
  const bob = await apiUser(playwright, baseURL, "nfb");
  const carol = await apiUser(playwright, baseURL, "nfc");
  // oldest first: the page lists them newest first
  await likeEcho(carol.request, echo._id);
  await likeEcho(bob.request, echo._id);
  expect((await bob.request.post(`/api/profile/user/${alice._id}/follow`)).status()).toBe(200);
  await followScroll(bob.request, scroll._id);
  await postEcho(bob.request, `Great shot @${alice.userName}!`);
  await Promise.all([bob.request.dispose(), carol.request.dispose()]);

  await open(page, "/");
  const bell = page.getByRole("link", { name: "Notifications, 4 unread" });
  await expect(bell).toBeVisible();
  await expect(bell).toContainText("4");
  // from the keyboard: Tab from the search button reaches the bell, Enter opens the page
  await page.getByRole("link", { name: "Search" }).focus();
  await page.keyboard.press("Tab");
  await expect(bell).toBeFocused();
  await page.keyboard.press("Enter");
  await expectPath(page, "/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();

  const items = page.locator(".notification-list > li");
  await expect(items).toHaveText([
    new RegExp(`^Unread: ${bob.user.userName} mentioned you in “Great shot @${alice.userName}!”`),
    new RegExp(`^Unread: ${bob.user.userName} followed your scroll “Bay photos”`),
    new RegExp(`^Unread: ${bob.user.userName} followed you`),
    new RegExp(`^Unread: ${bob.user.userName} and 1 other liked your echo “Sunrise over the bay this morning”`),
  ]);
  await expect(items.first().getByRole("link")).toHaveAttribute("href", /^\/echo\//);
  await expect(items.nth(2).getByRole("link")).toHaveAttribute("href", `/user/${bob.user._id}`);
  await expectAxeClean(page, "light");

  // the dark theme, badge and unread marks shown: opening the page marked nothing read
  await useTheme(page, "dark");
  await open(page, "/notifications");
  await expect(page.getByRole("link", { name: "Notifications, 4 unread" })).toBeVisible();
  await expect(items.filter({ hasText: "Unread:" })).toHaveCount(4);
  await expectAxeClean(page, "dark");

  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
  await expect(page.locator(".bell-badge")).toHaveCount(0);
  await expect(items.filter({ hasText: "Unread:" })).toHaveCount(0);
  await expect(items).toHaveCount(4);
  // read stays read on a new load
  await page.reload();
  await expect(page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
  await expect(items).toHaveCount(4);
  await expect(items.filter({ hasText: "Unread:" })).toHaveCount(0);
});

test("a guest has no bell and is sent from /notifications to log in", async ({ page }) => {
  await page.goto("/notifications");
  await expectPath(page, "/login");
  await expect(page.getByRole("link", { name: /^Notifications/ })).toHaveCount(0);
});

test("with nothing yet, the page says so", async ({ page }) => {
  await signedInPage(page, "ne");
  await open(page, "/notifications");
  await expect(page.getByText("No notifications yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
});
