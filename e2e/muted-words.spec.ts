// Muted words (issue 32, decision 028): Settings adds and lists them (hide or warn, where, how
// long) and removes them from the keyboard; a tag page leaves out an echo a "hide" word matches
// and shows one a "warn" word matches collapsed — "Hidden: matches <phrase>" with a disclosure
// (aria-expanded) the keyboard opens; axe in both themes on Settings and on the collapsed card.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { postEcho } from "./echo-helpers";
import { apiUser, expectToastShown, open, recordPosts, signedInPage, useTheme } from "./helpers";

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test(`mute words in Settings; a tag page hides and warns (${theme})`, async ({ page, playwright, baseURL }) => {
    await useTheme(page, theme);
    await signedInPage(page, "mwv");
    const author = await apiUser(playwright, baseURL, "mwa");
    const tag = `mw${theme}${Date.now().toString(36)}`;
    await postEcho(author.request, "the ending of the Spoiler film", [tag]);
    await postEcho(author.request, "nothing to see, secret plans", [tag, "secret"]);
    await postEcho(author.request, "a plain echo", [tag]);

    await open(page, "/settings");
    const posts = recordPosts(page);
    const section = page.getByRole("region", { name: "Muted words" });
    await expect(section.getByText("You haven't muted any words.")).toBeVisible();
    await section.getByLabel("Word, phrase or #tag").fill("spoiler");
    await section.getByLabel("Show it collapsed, with a warning").check();
    await section.getByRole("button", { name: "Mute word" }).click();
    await expectToastShown(page, "Muted “spoiler”");
    // the keyboard: type, then Enter submits the form
    const phrase = section.getByLabel("Word, phrase or #tag");
    await phrase.focus();
    await page.keyboard.type("#Secret");
    await section.getByLabel("Hide the echo").check();
    await phrase.focus();
    await page.keyboard.press("Enter");
    await expectToastShown(page, "Muted “#Secret”");
    const list = section.getByRole("list", { name: "Your muted words" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list.getByText("Warned in Home and Following, Feeds and curations, Tag pages, Search, Notifications")).toBeVisible();
    // issue 30: both went to the settings page's action (a fetcher), not to /api
    expect(posts).toEqual(["/settings.data", "/settings.data"]);
    await expectAxeClean(page, theme);

    await open(page, `/tag/${tag}`);
    await expect(page.getByText("a plain echo")).toBeVisible();
    await expect(page.getByText("nothing to see, secret plans")).toHaveCount(0);
    await expect(page.getByText("Hidden: matches spoiler")).toBeVisible();
    await expect(page.getByText("the ending of the Spoiler film")).toBeHidden();
    await expectAxeClean(page, theme);
    const show = page.getByRole("button", { name: "Show echo" });
    await show.focus();
    await expect(show).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Enter");
    await expect(page.getByText("the ending of the Spoiler film")).toBeVisible();
    await expect(page.getByRole("button", { name: "Hide echo" })).toHaveAttribute("aria-expanded", "true");

    // Remove from the keyboard: the tag page shows the echo again
    await open(page, "/settings");
    const removals = recordPosts(page);
    const remove = page.getByRole("button", { name: "Remove #Secret" });
    await remove.focus();
    await page.keyboard.press("Enter");
    await expectToastShown(page, "Removed “#Secret”");
    await expect(page.getByRole("list", { name: "Your muted words" }).getByRole("listitem")).toHaveCount(1);
    expect(removals).toEqual(["/settings.data"]);
    await open(page, `/tag/${tag}`);
    await expect(page.getByText("nothing to see, secret plans")).toBeVisible();
    await author.request.dispose();
  });
}
