// Live conversation (issue 31, decision 016 "Pages with no feed channel"): an open echo page gets
// new replies (the parent's count with them), edits and deletions — a deleted parent or the echo
// itself keeps its place, "This echo was deleted" — and search results and a curation's quote
// embed follow edits and deletions, with the reader's muted words (warn collapses, hide drops);
// all without a reload; keyboard and axe in both themes. Socket rules: tests/api/live-conversation.test.ts.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { card, postEcho, replyTo, type Echo } from "./echo-helpers";
import { apiUser, open, PASSWORD, signedInPage, THEMES, unique, useTheme } from "./helpers";

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

const reply = replyTo;

async function edit(request: APIRequestContext, id: string, content: string) {
  expect((await request.patch(`/api/echo/${id}/edit`, { data: { content, tags: [] } })).status()).toBe(200);
}

/** The page's edits socket is open (its 101 came): a change made from now on reaches it. */
async function socketOpen(page: Page) {
  await expect(page.getByTestId("live-edits")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
}

for (const theme of THEMES) {
  test(`an open echo page (${theme}): a new reply arrives and is counted, an edit shows, deleted echos keep their place`, async ({ page, playwright, baseURL }) => {
    await useTheme(page, theme);
    await signedInPage(page, "lcr");
    const bob = await apiUser(playwright, baseURL, "lcb");
    const parent = await postEcho(bob.request, `Where shall we meet ${unique("p")}`, []);
    const echo = await reply(bob.request, parent._id, "At the harbour");
    const first = await reply(bob.request, echo._id, "Which side of it?");
    await open(page, `/echo/${echo._id}`);
    await expect(card(page, echo._id).getByRole("link", { name: "Reply, 1 reply" })).toBeVisible();
    await socketOpen(page);

    // a new reply from elsewhere: on top of the replies, the parent's count follows
    const second = await reply(bob.request, echo._id, "By the lighthouse");
    const replies = page.getByRole("region", { name: "Replies" });
    await expect(replies.getByText("By the lighthouse")).toBeVisible();
    await expect(card(page, echo._id).getByRole("link", { name: "Reply, 2 replies" })).toBeVisible();
    await expect(replies.locator("[data-echo-id]").first()).toHaveAttribute("data-echo-id", second._id);

    // an edit of a reply shows in place
    await edit(bob.request, first._id, "Which side of it, north or south?");
    await expect(card(page, first._id).getByText("Which side of it, north or south?")).toBeVisible();

    // the parent deleted: its place stays in the chain above
    expect((await bob.request.delete(`/api/echo/delete/${parent._id}`)).status()).toBe(200);
    const ancestors = page.getByRole("list", { name: "Earlier in this conversation" });
    await expect(ancestors.getByText("This echo was deleted")).toBeVisible();
    // a deleted reply: its place stays, the count drops
    expect((await bob.request.delete(`/api/echo/delete/${second._id}`)).status()).toBe(200);
    await expect(replies.getByText("This echo was deleted")).toBeVisible();
    await expect(card(page, echo._id).getByRole("link", { name: "Reply, 1 reply" })).toBeVisible();
    // the echo itself deleted: the thread reads on around its place
    expect((await bob.request.delete(`/api/echo/delete/${echo._id}`)).status()).toBe(200);
    await expect(card(page, echo._id)).toHaveCount(0);
    await expect(page.getByTestId("echo-deleted")).toHaveCount(3);
    await expect(card(page, first._id).getByText("Which side of it, north or south?")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Deleted echo");
    // the reply box went with the echo; the remaining reply is reached by keyboard
    await expect(page.getByRole("textbox", { name: /Reply to/ })).toHaveCount(0);
    await card(page, first._id).getByRole("link", { name: /Reply, 0 replies/ }).focus();
    await expect(card(page, first._id).getByRole("link", { name: /Reply, 0 replies/ })).toBeFocused();
    await expectAxeClean(page, theme);
    await bob.request.dispose();
  });
}

for (const theme of THEMES) {
  test(`a thread page (${theme}): a reply to a reply arrives in its place, counted; a deleted account's reply keeps its place`, async ({ page, playwright, baseURL }) => {
    await useTheme(page, theme);
    await signedInPage(page, "lct");
    const bob = await apiUser(playwright, baseURL, "lcn");
    const carol = await apiUser(playwright, baseURL, "lco");
    const root = await postEcho(bob.request, `A long conversation ${unique("t")}`, []);
    const first = await reply(bob.request, root._id, "A first answer");
    const leaving = await reply(carol.request, root._id, "An answer that goes with its account");
    await open(page, `/echo/${root._id}`);
    await socketOpen(page);

    // a reply to a reply: under it, in its nested list; its count follows
    const nested = await reply(bob.request, first._id, "An answer to the answer");
    const under = page.getByRole("list", { name: "Replies to this reply" });
    await expect(under.getByText("An answer to the answer")).toBeVisible();
    await expect(card(page, first._id).getByRole("link", { name: "Reply, 1 reply" })).toBeVisible();
    // one level further down: only the nested card's count (its replies are on its own page)
    await reply(bob.request, nested._id, "Deeper still");
    await expect(card(page, nested._id).getByRole("link", { name: "Reply, 1 reply" })).toBeVisible();
    await expect(page.getByText("Deeper still")).toHaveCount(0);

    // carol deletes her account: her reply's place stays, the root's count drops
    await expect(card(page, root._id).getByRole("link", { name: "Reply, 2 replies" })).toBeVisible();
    expect((await carol.request.delete("/api/profile/me", { data: { password: PASSWORD } })).status()).toBe(200);
    await expect(card(page, leaving._id)).toHaveCount(0);
    await expect(page.getByTestId("echo-deleted")).toHaveCount(1);
    await expect(card(page, root._id).getByRole("link", { name: "Reply, 1 reply" })).toBeVisible();
    await card(page, nested._id).getByRole("link", { name: "Reply, 1 reply" }).focus();
    await expect(card(page, nested._id).getByRole("link", { name: "Reply, 1 reply" })).toBeFocused();
    await expectAxeClean(page, theme);
    await bob.request.dispose();
    await carol.request.dispose();
  });
}

test("search results and a curation's quote follow edits and deletions live, with the reader's muted words", async ({ page, playwright, baseURL }) => {
  await useTheme(page, "dark");
  await signedInPage(page, "lcs");
  const bob = await apiUser(playwright, baseURL, "lcq");
  const word = unique("kelp");
  const warn = unique("warnw");
  const hide = unique("hidew");
  for (const [phrase, action] of [[warn, "warn"], [hide, "hide"]]) {
    const res = await page.request.post("/api/profile/me/muted-words", { data: { phrase, action, contexts: ["search", "feeds"], duration: "forever" } });
    expect(res.status()).toBe(200);
  }
  const one = await postEcho(bob.request, `${word} forest one`, []);
  const two = await postEcho(bob.request, `${word} forest two`, []);
  const gone = await postEcho(bob.request, `${word} forest three`, []);

  await open(page, `/search?q=${word}`);
  await expect(card(page, one._id)).toBeVisible();
  await socketOpen(page);
  await edit(bob.request, one._id, `${word} forest one, edited`);
  await expect(card(page, one._id).getByText(`${word} forest one, edited`)).toBeVisible();
  // a warn word the edit brings: collapsed to the phrase, opened by keyboard
  await edit(bob.request, two._id, `${word} forest two ${warn}`);
  await expect(card(page, two._id).getByText(`Hidden: matches ${warn}`)).toBeVisible();
  await expectAxeClean(page, "dark");
  // a hide word: the result leaves the page; a deletion too
  await edit(bob.request, one._id, `${word} forest one ${hide}`);
  await expect(card(page, one._id)).toHaveCount(0);
  expect((await bob.request.delete(`/api/echo/delete/${gone._id}`)).status()).toBe(200);
  await expect(card(page, gone._id)).toHaveCount(0);
  await expect(card(page, two._id)).toBeVisible();

  // a curation holding a quote of an echo: the embed follows the quoted echo's edit
  const quoted = await postEcho(bob.request, `Quoted words ${unique("q")}`, []);
  const quoteRes = await bob.request.post(`/api/echo/${quoted._id}/quote`, { data: { content: "Look at this" } });
  const quote = ((await quoteRes.json()) as { echo: Echo }).echo;
  const created = await page.request.post("/api/scroll/create", { data: { name: `Quotes ${unique("c")}`, type: "curation" } });
  const curation = ((await created.json()) as { scroll: { _id: string } }).scroll;
  expect((await page.request.post(`/api/scroll/${curation._id}/add-echo`, { data: { echoId: quote._id } })).status()).toBe(200);
  // the scroll page's one socket (since issue 31) brings the quoted echo's edit too
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  await open(page, `/scroll/${curation._id}`);
  const embed = card(page, quote._id).locator(".echo-quoted");
  await expect(embed).toContainText("Quoted words");
  await expect(page.getByTestId("live-pill")).toHaveAttribute("data-state", "open", { timeout: 15_000 });
  await edit(bob.request, quoted._id, "Quoted words, now edited");
  await expect(embed).toContainText("Quoted words, now edited");
  expect(sockets.filter((url) => url.includes("/api/live"))).toEqual([expect.stringContaining(`scroll=${curation._id}`)]);
  await bob.request.dispose();
});
