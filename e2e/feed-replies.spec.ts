// The feeds' `replies` rule option (decision 024, "Feeds"): the form's "Include replies" checkbox,
// set from the keyboard, puts replies in the feed; unchecked on edit, they leave it. axe on the
// form in both themes.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { card, postEcho, type Echo } from "./echo-helpers";
import { expectPath, expectToastShown, open, signedInPage, unique, useTheme } from "./helpers";

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

test("Include replies: checked from the keyboard, the feed shows replies; unchecked on edit, it leaves them out", async ({ page }) => {
  test.setTimeout(60_000);
  await useTheme(page, "light");
  await signedInPage(page, "frp");
  const tag = unique("frp").toLowerCase();
  const top = await postEcho(page.request, "Where to eat tonight?", [tag]);
  const res = await page.request.post(`/api/echo/${top._id}/reply`, { data: { content: "The noodle place", tags: [tag] } });
  expect(res.status()).toBe(201);
  const reply = ((await res.json()) as { echo: Echo }).echo;

  await open(page, "/scroll/new");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(`Dinner ${tag.slice(-5)}`);
  await page.locator("#include-tags").fill(tag);
  await page.locator("#include-tags").press("Enter");
  const include = page.getByRole("checkbox", { name: "Include replies" });
  await expect(include).not.toBeChecked();
  await expectAxeClean(page, "light");
  await include.focus();
  await page.keyboard.press("Space");
  await expect(include).toBeChecked();
  await page.getByRole("button", { name: "Create Scroll" }).click();
  await expectToastShown(page, "Scroll created successfully");
  const scrolls = (await (await page.request.get("/api/scroll/all")).json()) as { scrolls: { _id: string; feedConfig: { replies: boolean } }[] };
  const feed = scrolls.scrolls[0]!;
  expect(feed.feedConfig.replies).toBe(true);

  // the feed's page: the reply and the echo it answers (the index builds in the background)
  await expect(async () => {
    await open(page, `/scroll/${feed._id}`);
    await expect(card(page, reply._id)).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(card(page, top._id)).toBeVisible();

  // edit: the box is checked; unchecked, the reply leaves the feed
  await open(page, `/scroll/${feed._id}/edit`);
  await useTheme(page, "dark");
  await open(page, `/scroll/${feed._id}/edit`);
  const box = page.getByRole("checkbox", { name: "Include replies" });
  await expect(box).toBeChecked();
  await expectAxeClean(page, "dark");
  await box.focus();
  await page.keyboard.press("Space");
  await expect(box).not.toBeChecked();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectToastShown(page, "Scroll updated");
  await expectPath(page, `/scroll/${feed._id}`);
  await expect(async () => {
    await open(page, `/scroll/${feed._id}`);
    await expect(card(page, top._id)).toBeVisible({ timeout: 2000 });
    await expect(card(page, reply._id)).toHaveCount(0);
  }).toPass({ timeout: 20_000 });
});
