// Live updates (issue 17, decision 016): a reader's open feed shows "N new echos" within 2 s of
// another browser's post, and the pill puts them on top. Lean on purpose: the channels' matching
// rules are tested over real sockets in tests/api/live.test.ts.
import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { axe } from "./axe-helpers";
import { cardIds, postEcho } from "./echo-helpers";
import { apiUser, open, otherUser, signedInPage, unique } from "./helpers";

const pill = (page: Page) => page.getByTestId("live-pill");

test.describe("Live updates", () => {
  test("another browser's post shows the pill on Home within 2 s; Enter on it puts the echo on top", async ({ page, browser, baseURL }) => {
    await signedInPage(page, "lv");
    const writer = await otherUser(browser, baseURL, "lw");
    // Home showing a feed of a tag of this test's own: All echos hears every parallel test's
    // posts (the API test checks that channel echo by echo)
    const tag = unique("lv");
    const name = `Live ${tag}`;
    expect((await page.request.post("/api/scroll/create", { data: { name, type: "feed", feedConfig: { includedTags: [tag] } } })).status()).toBe(201);
    const older = await postEcho(writer.page.request, `Already there ${unique("o")}`, [tag]);
    await open(page, "/");
    await page.getByRole("listbox", { name: "Feed scrolls" }).getByRole("option", { name }).click();
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    await expect.poll(() => cardIds(page)).toEqual([older._id]);

    const posted = Date.now();
    const echo = await postEcho(writer.page.request, `Live from elsewhere ${unique("l")}`, [tag]);
    const button = pill(page).getByRole("button", { name: "1 new echo", exact: true });
    await expect(button).toBeVisible({ timeout: 2000 });
    expect(Date.now() - posted).toBeLessThan(2000);
    // nothing moved before the reader asked
    expect(await cardIds(page)).toEqual([older._id]);

    // the pill lives in a polite status region, and axe finds nothing serious in it
    await expect(pill(page)).toHaveAttribute("role", "status");
    const { violations } = await axe(page).include("[data-testid=live-pill]").analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

    await button.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => cardIds(page)).toEqual([echo._id, older._id]);
    await expect(button).toHaveCount(0);
    // keyboard users continue from the list's top: the next Tab reaches the new echo
    await expect(page.getByTestId("echo-list")).toBeFocused();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("[data-echo-id]")?.getAttribute("data-echo-id"))).toBe(echo._id);
    await writer.context.close();
  });

  test("Home on Following: a followed author's post shows the pill within 2 s, a stranger's does not", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "lf");
    const followee = await apiUser(playwright, baseURL, "lg");
    const stranger = await apiUser(playwright, baseURL, "lh");
    const older = await postEcho(followee.request, `Before the follow ${unique("o")}`, []);
    expect((await page.request.post(`/api/profile/user/${followee.user._id}/follow`)).status()).toBe(200);
    // following someone makes Following Home's default
    await open(page, "/");
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Following");
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    await expect.poll(() => cardIds(page)).toEqual([older._id]);

    await postEcho(stranger.request, `Not followed ${unique("s")}`, []);
    const posted = Date.now();
    const echo = await postEcho(followee.request, `Followed ${unique("f")}`, []);
    const button = pill(page).getByRole("button", { name: "1 new echo", exact: true });
    await expect(button).toBeVisible({ timeout: 2000 });
    expect(Date.now() - posted).toBeLessThan(2000);
    await button.click();
    await expect.poll(() => cardIds(page)).toEqual([echo._id, older._id]);
    await followee.request.dispose();
    await stranger.request.dispose();
  });

  test("Home on Following: an edit shows at once on the open card; a followed account's repost shows the pill (decisions 025, 027)", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "le");
    const author = await apiUser(playwright, baseURL, "lk");
    const reposter = await apiUser(playwright, baseURL, "lr");
    const echo = await postEcho(author.request, `Before the edit ${unique("o")}`, []);
    for (const who of [author, reposter]) expect((await page.request.post(`/api/profile/user/${who.user._id}/follow`)).status()).toBe(200);
    await open(page, "/");
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Following");
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    await expect.poll(() => cardIds(page)).toEqual([echo._id]);

    const text = `After the edit ${unique("n")}`;
    expect((await author.request.patch(`/api/echo/${echo._id}/edit`, { data: { content: text, tags: [] } })).status()).toBe(200);
    const shown = page.locator(`[data-echo-id="${echo._id}"]`);
    await expect(shown.locator(".echo-content")).toHaveText(text, { timeout: 2000 });
    await expect(shown).toContainText("edited");
    // an edit is not news: no pill
    await expect(pill(page).getByRole("button")).toHaveCount(0);

    expect((await reposter.request.post(`/api/echo/${echo._id}/repost`)).status()).toBe(200);
    await pill(page).getByRole("button", { name: "1 new echo", exact: true }).click({ timeout: 2000 });
    // the repost is a row of its own above the echo, saying who passed it on
    await expect.poll(() => cardIds(page)).toEqual([echo._id, echo._id]);
    await expect(page.locator(".echo-reposted").first()).toContainText(`@${reposter.user.userName} reposted`);
    await author.request.dispose();
    await reposter.request.dispose();
  });

  test("scrolled down, clicking the pill takes the reader up to the new echos", async ({ page, browser, baseURL }) => {
    await signedInPage(page, "la");
    const writer = await otherUser(browser, baseURL, "lb");
    const tag = unique("la");
    const echos = [];
    for (let i = 0; i < 8; i++) echos.push(await postEcho(writer.page.request, `Older ${i} ${unique("o")}`, [tag]));
    await open(page, `/tag/${tag}`);
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    // the reader is on the fifth newest echo
    const reading = page.locator(`[data-echo-id="${echos[3]!._id}"]`);
    await reading.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
    const fresh = await postEcho(writer.page.request, `Newer ${unique("n")}`, [tag]);
    await pill(page).getByRole("button", { name: "1 new echo" }).click();
    await expect.poll(() => cardIds(page).then((ids) => ids[0])).toBe(fresh._id);
    // issue 29: the new echo is in view (it used to go in above, out of sight)
    await expect(page.locator(`[data-echo-id="${fresh._id}"]`)).toBeInViewport();
    await writer.context.close();
  });

  test("echos posted while the socket was down are caught up when it reconnects, after one it had offered", async ({ page, browser, baseURL }) => {
    // the tag page's one socket goes through the test, which can drop it and hold the next one
    // back until the writer has posted
    let hold: Promise<void> | null = null;
    let route: { page: WebSocketRoute; server: WebSocketRoute } | null = null;
    let connects = 0;
    await page.routeWebSocket(/\/api\/live\?tag=/, async (ws) => {
      connects++;
      if (hold) await hold;
      route = { page: ws, server: ws.connectToServer() };
    });
    await signedInPage(page, "lc");
    const writer = await otherUser(browser, baseURL, "ld");
    const tag = unique("lc");
    const older = await postEcho(writer.page.request, `Already there ${unique("o")}`, [tag]);
    await open(page, `/tag/${tag}`);
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    await expect.poll(() => cardIds(page)).toEqual([older._id]);

    // offered by the socket, not yet shown
    const offered = await postEcho(writer.page.request, `Before the drop ${unique("b")}`, [tag]);
    await expect(pill(page).getByRole("button", { name: "1 new echo", exact: true })).toBeVisible({ timeout: 2000 });

    // the connection drops; the next one is held back while an echo is posted
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const dropped = route!;
    await dropped.server.close();
    await dropped.page.close({ code: 4000, reason: "dropped by the test" });
    await expect(pill(page)).toHaveAttribute("data-state", "connecting");
    await expect.poll(() => connects).toBe(2);
    const missed = await postEcho(writer.page.request, `During the gap ${unique("g")}`, [tag]);
    release();

    // reconnected: the echo posted meanwhile is counted with the one already offered (not twice)
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    const button = pill(page).getByRole("button", { name: "2 new echos", exact: true });
    await expect(button).toBeVisible({ timeout: 3000 });
    await button.click();
    await expect.poll(() => cardIds(page)).toEqual([missed._id, offered._id, older._id]);
    await writer.context.close();
  });

  test("at 390 px wide the pill sits in its own slot above the first echo, and nothing moves when it loads or appears", async ({ page, browser, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signedInPage(page, "ls");
    const writer = await otherUser(browser, baseURL, "lr");
    const tag = unique("ls");
    const older = await postEcho(writer.page.request, `Already there ${unique("o")}`, [tag]);
    // the slot is in the server's HTML: where the card is without JavaScript is where it stays
    // once the pill has loaded
    const plain = await browser.newContext({ baseURL, viewport: { width: 390, height: 800 }, javaScriptEnabled: false });
    await plain.addCookies(await page.context().cookies());
    const plainPage = await plain.newPage();
    await plainPage.goto(`/tag/${tag}`);
    const server = (await plainPage.locator(`[data-echo-id="${older._id}"]`).boundingBox())!;
    await plain.close();
    await open(page, `/tag/${tag}`);
    await expect(pill(page)).toHaveAttribute("data-state", "open");
    const first = page.locator(`[data-echo-id="${older._id}"]`);
    const before = (await first.boundingBox())!;
    expect(before.y).toBe(server.y);
    await postEcho(writer.page.request, `Newer ${unique("n")}`, [tag]);
    const button = pill(page).getByRole("button", { name: "1 new echo" });
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    // above the card (its author and time are not covered), and the card did not move
    expect(box.y + box.height).toBeLessThanOrEqual(before.y);
    expect((await first.boundingBox())!.y).toBe(before.y);
    await writer.context.close();
  });

  test("without WebSockets the page falls back to polling and still shows the pill on a tag page", async ({ page, browser, baseURL }) => {
    await page.context().addInitScript(() => {
      // a browser (or a proxy) where sockets cannot work; poll quickly so the test stays short
      delete (window as { WebSocket?: unknown }).WebSocket;
      (window as { __ECHO_LIVE_POLL_MS?: number }).__ECHO_LIVE_POLL_MS = 300;
    });
    await signedInPage(page, "lp");
    const writer = await otherUser(browser, baseURL, "lq");
    const tag = unique("lt");
    await open(page, `/tag/${tag}`);
    await expect(pill(page)).toHaveAttribute("data-state", "poll");
    const echo = await postEcho(writer.page.request, `Polled ${unique("p")}`, [tag]);
    await pill(page).getByRole("button", { name: "1 new echo" }).click();
    await expect.poll(() => cardIds(page)).toEqual([echo._id]);
    await writer.context.close();
  });
});
