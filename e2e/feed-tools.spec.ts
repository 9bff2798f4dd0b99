// Issue 16 in Chromium: the live preview on the scroll form, "Why am I seeing this?" on feed
// echos (and the creator's "why isn't it?" from an echo's page), and forking a public feed.
import { expect, test, type Page } from "@playwright/test";
import { axe } from "./axe-helpers";
import { card, openMenu, postEcho } from "./echo-helpers";
import { expectToastShown, open, otherUser, signedInPage } from "./helpers";
import { createFeed, uniqueTag } from "./scroll-helpers";

async function expectAxeClean(page: Page) {
  // a toast fading in is checked at its final colours: axe reads a half-transparent one as low contrast
  await page.evaluate(() =>
    Promise.all([...document.querySelectorAll('[role="status"]')].flatMap((el) => (el.parentElement ?? el).getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined)))),
  );
  const { violations } = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

test.describe.configure({ timeout: 90_000 });

test("the scroll form previews the rule live: matching echos and how many match", async ({ page }) => {
  await signedInPage(page, "pv");
  const tag = uniqueTag("pv");
  await postEcho(page.request, "first preview echo", [tag]);
  await postEcho(page.request, "second preview echo", [tag, "hidden"]);
  await postEcho(page.request, "third preview echo", [tag]);
  await open(page, "/scroll/new");
  const count = page.getByTestId("preview-count");
  await page.locator("#include-tags").fill(tag);
  await page.locator("#include-tags").press("Enter");
  await expect(count).toHaveText("3 echos match", { timeout: 15_000 });
  await expect(page.getByRole("list", { name: "Matching echos" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByTestId("preview-echo").first()).toContainText("third preview echo");
  await page.locator("#exclude-tags").fill("hidden");
  await page.locator("#exclude-tags").press("Enter");
  await expect(count).toHaveText("2 echos match", { timeout: 15_000 });
  await expect(page.getByTestId("preview-echo")).toHaveCount(2);
  // an impossible rule: nothing matches, and the panel says so
  await page.locator("#exclude-tags").fill(tag);
  await page.locator("#exclude-tags").press("Enter");
  await expect(count).toHaveText("0 echos match", { timeout: 15_000 });
  await expect(page.getByText("No echos match your filters")).toBeVisible();
  await expectAxeClean(page);
});

test("the edit screen previews the saved rule", async ({ page }) => {
  await signedInPage(page, "pe");
  const tag = uniqueTag("pe");
  await postEcho(page.request, "only echo for the edit preview", [tag]);
  const feed = await createFeed(page.request, "Edit preview", { includedTags: [tag] });
  await open(page, `/scroll/${feed._id}/edit`);
  await expect(page.getByTestId("preview-count")).toHaveText("1 echo matches", { timeout: 15_000 });
  await expect(page.getByTestId("preview-echo")).toHaveText(/only echo for the edit preview/);
});

test("'Why am I seeing this?' on a feed's echo explains it in a dialog, by keyboard, on the scroll page and home", async ({ page }) => {
  const me = await signedInPage(page, "wy");
  const tag = uniqueTag("wy");
  const echo = await postEcho(page.request, "explain me", [tag]);
  const feed = await createFeed(page.request, "Why feed", { includedTags: [tag], authors: [me._id] });
  for (const path of [`/scroll/${feed._id}`, "/"]) {
    await open(page, path);
    const item = card(page, echo._id);
    const menuButton = item.getByRole("button", { name: "Echo menu" });
    await menuButton.focus();
    await page.keyboard.press("Enter");
    // the menu opens on Copy Link; the next item asks why
    await expect(item.getByRole("menuitem", { name: "Copy Link" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(item.getByRole("menuitem", { name: "Why am I seeing this?" })).toBeFocused();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Why am I seeing this?" });
    await expect(dialog).toBeVisible();
    const answer = dialog.getByTestId("why-answer");
    await expect(answer).toContainText("In Why feed");
    await expect(dialog.getByRole("listitem")).toHaveText([`✓Meets: tagged #${tag} (any of #${tag})`, `✓Meets: by @${me.userName}`]);
    if (path === "/") await expectAxeClean(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(menuButton).toBeFocused();
  }
});

test("on an echo's page, a feed's creator asks why it isn't in their feed", async ({ page }) => {
  await signedInPage(page, "wn");
  const tag = uniqueTag("wn");
  const echo = await postEcho(page.request, "left out", [tag, "noise"]);
  await createFeed(page.request, "Quiet feed", { includedTags: [tag], excludedTags: ["noise"] });
  await open(page, `/echo/${echo._id}`);
  const menu = await openMenu(card(page, echo._id));
  await menu.getByRole("menuitem", { name: "Why isn't it in my feed?" }).click();
  const dialog = page.getByRole("dialog", { name: "Why isn't it in my feed?" });
  await dialog.getByLabel("Feed").selectOption({ label: "Quiet feed" });
  await expect(dialog.getByTestId("why-answer")).toContainText("Not in Quiet feed");
  await expect(dialog.getByRole("listitem")).toHaveText([`✓Meets: tagged #${tag} (any of #${tag})`, "✗Misses: tagged #noise, which this feed leaves out"]);
  await expectAxeClean(page);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("Fork on a public feed opens the viewer's copy in the editor with the preview; it says where it came from", async ({ page, browser, baseURL }) => {
  await signedInPage(page, "fk");
  const owner = await otherUser(browser, baseURL, "fw");
  const tag = uniqueTag("fk");
  await postEcho(owner.page.request, "worth forking", [tag]);
  const original = await createFeed(owner.page.request, "Owner feed", { includedTags: [tag] });
  await owner.context.close();

  await open(page, `/scroll/${original._id}`);
  await expect(page.getByTestId("fork-count")).toHaveText(" · 0 forks");
  await page.getByRole("button", { name: "Fork" }).click();
  await expect(page).toHaveURL(/\/scroll\/[0-9a-z]{26}\/edit$/);
  await expect(page.getByLabel("Name")).toHaveValue("Owner feed (fork)");
  await expect(page.getByTestId("preview-count")).toHaveText("1 echo matches", { timeout: 15_000 });
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page).toHaveURL(/\/scroll\/[0-9a-z]{26}$/);
  await expectToastShown(page, "Scroll updated");
  const forkedFrom = page.getByTestId("forked-from");
  await expect(forkedFrom).toHaveText(`forked from Owner feed by @${owner.user.userName}`);
  await expectAxeClean(page);
  await forkedFrom.getByRole("link", { name: "Owner feed" }).click();
  await expect(page).toHaveURL(new RegExp(`/scroll/${original._id}$`));
  await expect(page.getByTestId("fork-count")).toHaveText(" · 1 fork");
});
