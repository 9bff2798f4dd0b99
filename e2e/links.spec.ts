// Links and mentions in echo text (issue 18): web links, @mentions and #tags render as links in
// cards and on the echo page, the rest stays text; a link in a card goes where it points rather
// than opening the echo, and is reachable with Tab. Echos are seeded through /api.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { axe } from "./axe-helpers";
import { card, postEcho } from "./echo-helpers";
import { apiUser, expectPath, open, signedInPage, unique, waitForApp } from "./helpers";
import { uniqueTag } from "./scroll-helpers";

/** Press Tab (from the card's author link) until `target` has focus; fails if it never does. */
async function tabTo(page: Page, from: Locator, target: Locator) {
  await from.focus();
  for (let i = 0; i < 10; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test.describe("links and mentions in echo text", () => {
  test("a URL, an existing and an unknown @mention and a #tag are links; each opens the right page", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "lk");
    const friend = await apiUser(playwright, baseURL, "lkf");
    const nobody = unique("nobody");
    const tag = uniqueTag("lk");
    const content = `Read https://example.com/docs/a_(b)?q=1. Thanks @${friend.user.userName} and @${nobody} for #${tag.toUpperCase()}!`;
    // tagged too, so the tag page its #tag links to lists it
    const echo = await postEcho(page.request, content, [tag]);
    await friend.request.dispose();

    // the echo page (server-rendered, then hydrated)
    await open(page, `/echo/${echo._id}`);
    const text = card(page, echo._id).locator(".echo-content");
    await expect(text).toHaveText(content);
    const url = text.getByRole("link", { name: "https://example.com/docs/a_(b)?q=1", exact: true });
    await expect(url).toHaveAttribute("href", "https://example.com/docs/a_(b)?q=1");
    await expect(url).toHaveAttribute("rel", "nofollow ugc noopener");
    await expect(url).toHaveAttribute("target", "_blank");
    const mention = text.getByRole("link", { name: `@${friend.user.userName}`, exact: true });
    await expect(mention).toHaveAttribute("href", `/user/by-name/${friend.user.userName}`);
    const unknown = text.getByRole("link", { name: `@${nobody}`, exact: true });
    await expect(unknown).toHaveAttribute("href", `/user/by-name/${nobody}`);
    const tagLink = text.getByRole("link", { name: `#${tag.toUpperCase()}`, exact: true });
    await expect(tagLink).toHaveAttribute("href", `/tag/${tag}`);
    await expect(text.getByRole("link")).toHaveCount(4);
    expect((await axe(page).include(".echo-content").analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

    // the tag link opens the tag page (normalised), where the card shows the same links
    await tagLink.click();
    await expectPath(page, `/tag/${tag}`);
    await expect(page.getByRole("heading", { level: 1, name: `#${tag}` })).toBeVisible();
    const cardText = card(page, echo._id).locator(".echo-content");
    await expect(cardText.getByRole("link")).toHaveCount(4);

    // a mention in a card opens the profile (not the echo), from the keyboard too
    await tabTo(page, card(page, echo._id).locator(".echo-author"), cardText.getByRole("link", { name: `@${friend.user.userName}`, exact: true }));
    await page.keyboard.press("Enter");
    await expectPath(page, `/user/${friend.user._id}`);
    await waitForApp(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`@${friend.user.userName}`);

    // a name no one has: the mention's page says so, with a 404
    await page.goBack();
    await expectPath(page, `/tag/${tag}`);
    await waitForApp(page);
    await card(page, echo._id).locator(".echo-content").getByRole("link", { name: `@${nobody}`, exact: true }).click();
    await expectPath(page, `/user/by-name/${nobody}`);
    await expect(page.getByText("User not found", { exact: true })).toBeVisible();
    await expect(page.getByText("This account may have been removed or never existed.")).toBeVisible();
    expect((await page.request.get(`/user/by-name/${nobody}`)).status()).toBe(404);
    // names match without regard to case, as user names are unique
    expect((await page.request.get(`/user/by-name/${friend.user.userName.toUpperCase()}`, { maxRedirects: 0 })).headers()["location"]).toBe(
      `/user/${friend.user._id}`,
    );
  });

  test("clicking a link in a card's text does not open the echo; the rest of the text still does", async ({ page }) => {
    await signedInPage(page, "lc");
    const tag = uniqueTag("lc");
    const other = uniqueTag("lco");
    const echo = await postEcho(page.request, `Card click #${other} then text`, [tag]);
    await open(page, `/tag/${tag}`);
    const text = card(page, echo._id).locator(".echo-content");
    // before the card ignored clicks on links, this click went on to open the echo
    await text.getByRole("link", { name: `#${other}` }).click();
    await expectPath(page, `/tag/${other}`);
    await expect(page.getByRole("heading", { level: 1, name: `#${other}` })).toBeVisible();
    await page.goBack();
    await expectPath(page, `/tag/${tag}`);
    // "Card" at the start of the text, not a link
    await text.click({ position: { x: 4, y: 6 } });
    await expectPath(page, `/echo/${echo._id}`);
  });

  test("markup and other schemes stay text, in SSR and after hydration", async ({ page }) => {
    await signedInPage(page, "lx");
    const content = `<script>window.__pwned=1</script> javascript:alert(1) <img src=x onerror="window.__pwned=1"> data:text/html,hi <a href="javascript:alert(1)">x</a>`;
    const echo = await postEcho(page.request, content);
    const response = await page.request.get(`/echo/${echo._id}`);
    const html = await response.text();
    expect(html).not.toContain("<script>window.__pwned");
    expect(html).not.toContain('<img src=x');
    await open(page, `/echo/${echo._id}`);
    const text = card(page, echo._id).locator(".echo-content");
    await expect(text).toHaveText(content);
    await expect(text.locator("a, script, img")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});
