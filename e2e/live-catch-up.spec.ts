// Live gaps closed (issue 31, decision 016): an echo's page whose socket was down (a laptop that
// slept) rereads its thread when it reconnects — the replies, edits and deletions it missed, and
// the counts; a reply deleted deeper than the levels shown lowers its parent's count live; a tag
// page opens one socket; a deleted account's repost entries leave Following live. Keyboard and
// axe in both themes on the thread. Socket rules: tests/api/live-one-socket.test.ts.
import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { card, cardIds, postEcho, replyTo, type Echo } from "./echo-helpers";
import { apiUser, open, PASSWORD, signedInPage, THEMES, unique, useTheme } from "./helpers";

const reply = replyTo;

const replies = (page: Page, id: string, n: number) => card(page, id).getByRole("link", { name: `Reply, ${n} repl${n === 1 ? "y" : "ies"}` });

for (const theme of THEMES) {
  test(`an echo page (${theme}): a deep reply's deletion lowers its parent's count; after a gap the page catches up`, async ({ page, playwright, baseURL }) => {
    // the page's socket goes through the test, which drops it and holds the next one back
    let hold: Promise<void> | null = null;
    let route: { page: WebSocketRoute; server: WebSocketRoute } | null = null;
    let connects = 0;
    await page.routeWebSocket(/\/api\/live\?echo=/, async (ws) => {
      connects++;
      if (hold) await hold;
      route = { page: ws, server: ws.connectToServer() };
    });
    await useTheme(page, theme);
    await signedInPage(page, "lgr");
    const bob = await apiUser(playwright, baseURL, "lgb");
    const root = await postEcho(bob.request, `Plans for the weekend ${unique("r")}`, []);
    const first = await reply(bob.request, root._id, "A hike?");
    const nested = await reply(bob.request, first._id, "Which trail?");
    const deep = await reply(bob.request, nested._id, "The long one");
    const doomed = await reply(bob.request, first._id, "Or the lake");
    await open(page, `/echo/${root._id}`);
    await expect(page.getByTestId("live-edits")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
    await expect(replies(page, nested._id, 1)).toBeVisible();

    // a reply the page never showed (its parent is the deepest level shown) goes: the count follows
    expect((await bob.request.delete(`/api/echo/delete/${deep._id}`)).status()).toBe(200);
    await expect(replies(page, nested._id, 0)).toBeVisible();

    // the connection drops (the laptop sleeps); the next one is held back while things happen
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const dropped = route!;
    await dropped.server.close();
    await dropped.page.close({ code: 4000, reason: "dropped by the test" });
    await expect(page.getByTestId("live-edits")).toHaveAttribute("data-state", "connecting");
    await expect.poll(() => connects).toBe(2);
    const missed = await reply(bob.request, root._id, "Or stay in and read");
    expect((await bob.request.patch(`/api/echo/${first._id}/edit`, { data: { content: "A hike, early?", tags: [] } })).status()).toBe(200);
    expect((await bob.request.delete(`/api/echo/delete/${doomed._id}`)).status()).toBe(200);
    await reply(bob.request, nested._id, "Any of them");
    await page.waitForTimeout(500);
    // nothing reached the page meanwhile
    await expect(page.getByText("Or stay in and read")).toHaveCount(0);
    release();

    // reconnected: the reply, the edit and the deletion it missed, and the counts a reload shows
    await expect(page.getByTestId("live-edits")).toHaveAttribute("data-state", "open");
    await expect(card(page, missed._id)).toContainText("Or stay in and read");
    await expect(card(page, first._id)).toContainText("A hike, early?");
    await expect(card(page, doomed._id)).toHaveCount(0);
    await expect(replies(page, root._id, 2)).toBeVisible();
    await expect(replies(page, first._id, 1)).toBeVisible();
    await expect(replies(page, nested._id, 1)).toBeVisible();

    // the caught-up reply is reached by keyboard like any other
    await replies(page, missed._id, 0).focus();
    await expect(replies(page, missed._id, 0)).toBeFocused();
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
    await bob.request.dispose();
  });
}

test("a tag page opens one socket, and a quoted echo's edit comes on it", async ({ page, playwright, baseURL }) => {
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  await signedInPage(page, "lgt");
  const bob = await apiUser(playwright, baseURL, "lgq");
  const tag = unique("lq");
  const quoted = await postEcho(bob.request, `Quoted words ${unique("q")}`, []);
  const quoteRes = await bob.request.post(`/api/echo/${quoted._id}/quote`, { data: { content: "Look at this", tags: [tag] } });
  expect(quoteRes.status()).toBe(201);
  const quote = ((await quoteRes.json()) as { echo: Echo }).echo;
  await open(page, `/tag/${tag}`);
  const embed = card(page, quote._id).locator(".echo-quoted");
  await expect(embed).toContainText("Quoted words");
  await expect(page.getByTestId("live-pill")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  expect((await bob.request.patch(`/api/echo/${quoted._id}/edit`, { data: { content: "Quoted words, now edited", tags: [] } })).status()).toBe(200);
  await expect(embed).toContainText("Quoted words, now edited");
  expect(sockets.filter((url) => url.includes("/api/live"))).toEqual([expect.stringContaining(`tag=${tag}`)]);
  await bob.request.dispose();
});

test("a deleted account's repost entries leave an open Following at once, like its echos", async ({ page, playwright, baseURL }) => {
  await signedInPage(page, "lgf");
  const author = await apiUser(playwright, baseURL, "lga");
  const reposter = await apiUser(playwright, baseURL, "lgp");
  const echo = await postEcho(author.request, `Worth passing on ${unique("w")}`, []);
  for (const who of [author, reposter]) expect((await page.request.post(`/api/profile/user/${who.user._id}/follow`)).status()).toBe(200);
  expect((await reposter.request.post(`/api/echo/${echo._id}/repost`)).status()).toBe(200);
  await open(page, "/");
  await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Following");
  await expect(page.getByTestId("live-pill")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  // the repost's row and the echo's own
  await expect.poll(() => cardIds(page)).toEqual([echo._id, echo._id]);
  expect((await reposter.request.delete("/api/profile/me", { data: { password: PASSWORD } })).status()).toBe(200);
  await expect(page.locator(".echo-reposted")).toHaveCount(0);
  await expect.poll(() => cardIds(page)).toEqual([echo._id]);
  await author.request.dispose();
  await reposter.request.dispose();
});
