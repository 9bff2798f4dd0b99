// Reposts and quotes (issue 31, decision 027) in Chromium: a repost by keyboard (a toggle button
// with aria-pressed, named with its count) puts the echo in the reposter's followers' Following as
// "↻ @name reposted", undo takes it away; a quote from the card's Quote button by keyboard
// embeds the quoted echo, and the echo page lists who reposted and quoted. axe finds nothing
// serious in both themes.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { card, postEcho } from "./echo-helpers";
import { apiUser, open, signedInPage, THEMES, unique, useTheme } from "./helpers";

async function noSeriousViolations(page: Page) {
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, page.url()).toEqual([]);
}

for (const theme of THEMES) {
  test(`repost and undo by keyboard; the follower's Following shows "reposted"; quote by keyboard, ${theme}`, async ({ page, playwright, baseURL }) => {
    // many steps and four axe runs on a loaded two-core machine
    test.setTimeout(90_000);
    await useTheme(page, theme);
    const me = await signedInPage(page, "rp");
    const author = await apiUser(playwright, baseURL, "rpa");
    const follower = await apiUser(playwright, baseURL, "rpf");
    const text = `Worth passing on ${unique("t")}`;
    const echo = await postEcho(author.request, text);
    expect((await follower.request.post(`/api/profile/user/${me._id}/follow`)).status()).toBe(200);
    // I follow the author: Home opens on Following, where my repost will show beside the echo
    expect((await page.request.post(`/api/profile/user/${author.user._id}/follow`)).status()).toBe(200);

    // repost from the echo's page by keyboard
    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id).first();
    const repost = detail.getByRole("button", { name: "Repost, 0 reposts" });
    await expect(repost).toHaveAttribute("aria-pressed", "false");
    await repost.focus();
    await page.keyboard.press("Enter");
    const undo = detail.getByRole("button", { name: "Undo repost, 1 repost" });
    await expect(undo).toHaveAttribute("aria-pressed", "true");
    await expect(undo).toBeFocused();

    // the follower's Following: the echo, "↻ @me reposted"
    const followerFeed = await follower.request.get("/api/echo/following");
    const entries = (await followerFeed.json()).echos as { _id: string; repost?: { by: { userName: string } } }[];
    expect(entries.map((e) => [e._id, e.repost?.by.userName])).toEqual([[echo._id, me.userName]]);
    // my own Following shows it too: the repost with its line (the newer entry), then the echo itself
    await open(page, "/");
    await expect(card(page, echo._id)).toHaveCount(2);
    await expect(card(page, echo._id).first().getByText(`@${me.userName} reposted`)).toBeVisible();
    await expect(card(page, echo._id).nth(1).getByText("reposted")).toHaveCount(0);
    await noSeriousViolations(page);

    // who reposted, on the echo's page
    await open(page, `/echo/${echo._id}`);
    const reposters = page.getByRole("button", { name: "Reposted by (1)" });
    await reposters.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("list", { name: "Reposted by" }).getByRole("link", { name: `@${me.userName}` })).toBeVisible();

    // quote by keyboard: the dialog, my text, the quoted echo shown as it will be embedded
    const quoteButton = card(page, echo._id).first().getByRole("button", { name: "Quote, 0 quotes" });
    await quoteButton.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Quote echo" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(text)).toBeVisible();
    await noSeriousViolations(page);
    const quoteText = `My take ${unique("q")}`;
    await dialog.getByRole("textbox", { name: "Your text" }).fill(quoteText);
    await dialog.getByRole("button", { name: "Quote", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(quoteButton.or(card(page, echo._id).first().getByRole("button", { name: "Quote, 1 quote" }))).toBeFocused();
    await expect(card(page, echo._id).first().getByRole("button", { name: "Quote, 1 quote" })).toBeVisible();

    // the quotes on the echo's page: my quote, the echo embedded in it
    await page.reload();
    await page.getByRole("button", { name: "Quotes (1)" }).click();
    const quotes = page.getByRole("list", { name: "Quotes" });
    await expect(quotes.getByText(quoteText)).toBeVisible();
    const embedded = quotes.getByRole("blockquote").or(quotes.locator("blockquote"));
    await expect(embedded.first()).toContainText(text);
    await expect(embedded.first().getByRole("link", { name: "Open quoted echo" })).toHaveAttribute("href", `/echo/${echo._id}`);
    await noSeriousViolations(page);

    // undo by keyboard: out of the follower's Following
    await card(page, echo._id).first().getByRole("button", { name: "Undo repost, 1 repost" }).focus();
    await page.keyboard.press("Space");
    await expect(card(page, echo._id).first().getByRole("button", { name: "Repost, 0 reposts" })).toBeVisible();
    const after = (await (await follower.request.get("/api/echo/following")).json()).echos as { repost?: unknown }[];
    expect(after.some((e) => e.repost)).toBe(false);

    // the quoted echo deleted: the quote says so
    expect((await author.request.delete(`/api/echo/delete/${echo._id}`)).status()).toBe(200);
    await open(page, `/user/${me._id}`);
    await expect(page.getByText("This echo was deleted").first()).toBeVisible();
    await noSeriousViolations(page);
    await Promise.all([author.request.dispose(), follower.request.dispose()]);
  });
}
