// The conversation and safety screens on a 390 px phone, light and dark (docs/spec-audit.md's
// screen review): an echo page with replies, a nested reply, "Reposted by" and "Quotes" opened;
// a reply's thread; Settings' muted words. Nothing may push the page sideways (six actions in a
// reply's card did, by 33–57 px), a muted word's places are shown in full (a two-line clamp cut
// them), and axe finds nothing serious (the bare "Reposted by" list failed target-size).
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { postEcho } from "./echo-helpers";
import { apiUser, open, signedInPage, THEMES, unique, useTheme } from "./helpers";

test.use({ viewport: { width: 390, height: 844 } });

async function expectCleanPhoneScreen(page: Page, theme: string) {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(sideways, `${page.url()} scrolls sideways`).toBe(0);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, page.url()).toEqual([]);
}

for (const theme of THEMES) {
  test(`an echo's replies, reposters and quotes, a thread and muted words fit a phone (${theme})`, async ({ page, playwright, baseURL }) => {
    // five sign-ups, a dozen writes and four axe runs on a loaded two-core machine
    test.setTimeout(120_000);
    await useTheme(page, theme);
    await signedInPage(page, "ph");
    const others = await Promise.all(["pha", "phb", "phc", "phd"].map((p) => apiUser(playwright, baseURL, p)));
    const [author, ...rest] = others;
    const root = await postEcho(author!.request, `Which book changed how you see cities? ${unique("t")}`);
    const replies: { _id: string }[] = [];
    for (const [i, o] of rest.entries()) {
      const res = await o.request.post(`/api/echo/${root._id}/reply`, { data: { content: `Reply ${i}: Seeing Like a State, hands down.`, tags: [] } });
      expect(res.status()).toBe(201);
      replies.push((await res.json()).echo);
    }
    const nested = await author!.request.post(`/api/echo/${replies[0]!._id}/reply`, { data: { content: "The chapter on Brasília is wild.", tags: [] } });
    expect(nested.status()).toBe(201);
    const nestedId = (await nested.json()).echo._id as string;
    for (const o of rest) expect((await o.request.post(`/api/echo/${root._id}/repost`)).ok()).toBe(true);
    for (const o of rest.slice(0, 2)) expect((await o.request.post(`/api/echo/${root._id}/quote`, { data: { content: "Saving this for my reading group." } })).ok()).toBe(true);

    await open(page, `/echo/${root._id}`);
    await page.getByRole("button", { name: "Reposted by (3)" }).click();
    await expect(page.getByRole("list", { name: "Reposted by" }).getByRole("link")).toHaveCount(3);
    await page.getByRole("button", { name: "Quotes (2)" }).click();
    await expect(page.getByRole("list", { name: "Quotes" }).getByRole("listitem")).toHaveCount(2);
    await expectCleanPhoneScreen(page, theme);

    await open(page, `/echo/${nestedId}`);
    await expect(page.getByRole("list", { name: "Earlier in this conversation" }).getByRole("listitem")).toHaveCount(2);
    await expectCleanPhoneScreen(page, theme);

    expect((await page.request.post("/api/profile/me/muted-words", { data: { phrase: "spoilers", action: "warn" } })).ok()).toBe(true);
    await open(page, "/settings");
    const places = page.getByRole("list", { name: "Your muted words" }).getByText("Warned in Home and Following, Feeds and curations, Tag pages, Search, Notifications");
    await expect(places).toBeVisible();
    // shown whole: the line's box holds all of its text
    expect(await places.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
    await expectCleanPhoneScreen(page, theme);
    await Promise.all(others.map((o) => o.request.dispose()));
  });
}
