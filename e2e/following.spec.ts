// The Following timeline on Home (issue 18): once the viewer follows someone, the picker offers
// "Following" and Home selects it by default, showing the followees' echos newest first; an
// explicit "All Echos" choice wins over that default. Echos are seeded through /api.
import { expect, test, type Page } from "@playwright/test";
import { axe } from "./axe-helpers";
import { cardIds, postEcho } from "./echo-helpers";
import { apiUser, open, signedInPage, unique } from "./helpers";

const picker = (page: Page) => page.getByRole("listbox", { name: "Feed scrolls" });
const title = (page: Page) => page.locator("main").getByRole("heading", { level: 1 });

async function expectAxeClean(page: Page) {
  const { violations } = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  expect(serious).toEqual([]);
}

test.describe("Following on Home", () => {
  test("follow a user in the browser: Home shows 'Following' selected with their echos; 'All Echos' stays a choice that sticks", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "fl");
    const friend = await apiUser(playwright, baseURL, "flf");
    const stranger = await apiUser(playwright, baseURL, "fls");
    const first = await postEcho(friend.request, `First from a friend ${unique("a")}`);
    const second = await postEcho(friend.request, `Second from a friend ${unique("b")}`);
    const strangers = await postEcho(stranger.request, `A stranger's echo ${unique("c")}`);
    await Promise.all([friend.request.dispose(), stranger.request.dispose()]);

    // before following anyone: no "Following" in the picker, Home shows all echos
    await open(page, "/");
    await expect(picker(page).getByRole("option", { name: "Following" })).toHaveCount(0);
    await expect(title(page)).toHaveText("All Echos");

    await open(page, `/user/${friend.user._id}`);
    await page.getByRole("button", { name: "Follow", exact: true }).click();
    await expect(page.getByRole("button", { name: "Unfollow", exact: true })).toBeVisible();

    await open(page, "/");
    await expect(picker(page).getByRole("option", { name: "Following" })).toHaveAttribute("aria-selected", "true");
    await expect(title(page)).toHaveText("Following");
    await expect.poll(() => cardIds(page)).toEqual([second._id, first._id]);
    expect(await cardIds(page)).not.toContain(strangers._id);
    await expectAxeClean(page);

    // an explicit choice wins over the default, across reloads
    await picker(page).getByRole("option", { name: "All Echos" }).click();
    await expect(title(page)).toHaveText("All Echos");
    await page.reload();
    await expect(title(page)).toHaveText("All Echos");
    await expect(picker(page).getByRole("option", { name: "All Echos" })).toHaveAttribute("aria-selected", "true");
  });

  test("following someone who has not posted: the empty state says why and where to find people", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "fe");
    const quiet = await apiUser(playwright, baseURL, "feq");
    await quiet.request.dispose();
    const res = await page.request.post(`/api/profile/user/${quiet.user._id}/follow`);
    expect(res.status()).toBe(200);

    await open(page, "/");
    await expect(title(page)).toHaveText("Following");
    const main = page.locator("main");
    await expect(main.getByText("Nothing from the people you follow yet", { exact: true })).toBeVisible();
    await expect(main.getByRole("link", { name: "Find People" })).toHaveAttribute("href", "/search");
    await expectAxeClean(page);
  });
});
