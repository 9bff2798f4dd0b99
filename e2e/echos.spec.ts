// Echo screens end to end (spec §2, §4, §5, §8; product decisions on report and share): the
// Create Echo form, the detail page, likes, the echo menu (copy link, delete, report), the tag
// page's order and time filters, and the virtualised infinite list. Seeds go through /api; the
// server is shared with other tests running in parallel, so nothing here assumes an empty feed.
import { expect, test, type Page } from "@playwright/test";
import { card, cardIds, expectLikeState, expectToast, likeButton, likeEcho, openMenu, postEcho } from "./echo-helpers";
import { expectUrl, open, otherUser, signedInPage, signUp, toast, unique, waitForApp } from "./helpers";

/** Let the virtualiser and React commit whatever the last scroll asked for. */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Bring an echo's card on '/' into view. Other tests post to the same server in parallel, so an
 * echo posted a moment ago may already sit below the first page: scroll (infinite list) to it.
 */
async function scrollToCard(page: Page, id: string) {
  const target = card(page, id);
  for (let i = 0; i < 100 && (await target.count()) === 0; i++) {
    await page.mouse.wheel(0, 700);
    await settle(page);
  }
  await target.scrollIntoViewIfNeeded();
  return target;
}

test.describe("Create Echo (/new)", () => {
  test("the counter counts characters as a person sees them: an emoji, a family emoji, a flag are one; 1000 family emoji post", async ({ page }) => {
    await signedInPage(page, "cg");
    await open(page, "/new");
    const content = page.getByRole("textbox", { name: "What's on your mind?" });
    const counter = page.getByTestId("char-count");
    const family = "👨‍👩‍👧‍👦"; // 11 UTF-16 units, one character
    await content.fill("😀");
    await expect(counter).toHaveText("999 characters remaining");
    await content.fill(`${family}🏴󠁧󠁢󠁳󠁣󠁴󠁿é`.normalize("NFD"));
    await expect(counter).toHaveText("997 characters remaining");
    await content.fill(family.repeat(1000));
    await expect(counter).toHaveText("0 characters remaining");
    // one more is kept (never cut: issue 29), counted over the limit, and Post waits for it to go
    await content.press("End");
    await content.pressSequentially("😀");
    await expect(counter).toHaveText("1 character over the 1000-character limit: remove it to post");
    await expect(content).toHaveValue(`${family.repeat(1000)}😀`);
    await expect(page.getByRole("button", { name: "Post", exact: true })).toBeDisabled();
    await content.press("Backspace");
    await expect(counter).toHaveText("0 characters remaining");
    await expect(content).toHaveValue(family.repeat(1000));
    await page.getByRole("button", { name: "Post", exact: true }).click();
    await expectToast(page, "Echo posted successfully", "success");
  });

  test("tags by space, comma, Enter, '#Upper', duplicates, Backspace, suggestions, max 5; counter; post → toast, / with the echo on top", async ({ page }) => {
    const user = await signedInPage(page, "cn");
    await open(page, "/new");

    const content = page.getByRole("textbox", { name: "What's on your mind?" });
    const counter = page.getByTestId("char-count");
    const postButton = page.getByRole("button", { name: "Post", exact: true });
    const tagInput = page.locator("#echo-tags");
    const chips = page.locator(".tag-box .tag-chip");
    const suggestions = page.locator('[aria-label="Suggested tags"] button');

    // Counter and Post state (spec §5)
    await expect(counter).toHaveText("1000 characters remaining");
    await expect(counter).not.toHaveClass(/\bwarning\b/);
    await expect(postButton).toBeDisabled();
    await content.fill("   \n  ");
    await expect(counter).toHaveText("994 characters remaining");
    await expect(postButton).toBeDisabled();
    await content.fill("");
    await content.pressSequentially("Hello");
    await expect(counter).toHaveText("995 characters remaining");
    await expect(postButton).toBeEnabled();
    await content.fill("x".repeat(950));
    await expect(counter).toHaveText("50 characters remaining");
    await expect(counter).not.toHaveClass(/\bwarning\b/);
    await content.pressSequentially("y");
    await expect(counter).toHaveText("49 characters remaining");
    await expect(counter).toHaveClass(/\bwarning\b/);
    await content.fill("z".repeat(1000));
    await expect(counter).toHaveText("0 characters remaining");
    await expect(postButton).toBeEnabled();
    await content.pressSequentially("!");
    await expect(counter).toHaveText("1 character over the 1000-character limit: remove it to post");
    await expect(content).toHaveValue(`${"z".repeat(1000)}!`);
    await expect(postButton).toBeDisabled();

    // Tags (spec §5)
    await expect(page.getByText("Tags (0/5)", { exact: true })).toBeVisible();
    await expect(suggestions).toHaveText(["#thoughts", "#tech", "#life", "#work", "#travel", "#food", "#books", "#music"]);
    const [bySpace, byComma, byEnter] = [unique("sp"), unique("cm"), unique("en")];
    await tagInput.pressSequentially(`${bySpace} `);
    await expect(chips).toHaveText([`#${bySpace}×`]);
    await expect(tagInput).toHaveValue("");
    await tagInput.pressSequentially(`${byComma},`);
    await tagInput.pressSequentially(byEnter);
    await tagInput.press("Enter");
    await expect(chips).toHaveText([`#${bySpace}×`, `#${byComma}×`, `#${byEnter}×`]);
    await expectUrl(page, "/new"); // Enter in the tag box adds a tag, it does not submit
    await tagInput.pressSequentially("#Travel ");
    await expect(chips).toHaveText([`#${bySpace}×`, `#${byComma}×`, `#${byEnter}×`, "#travel×"]);
    await expect(suggestions).toHaveText(["#thoughts", "#tech", "#life", "#work", "#food", "#books", "#music", "#art"]);
    // duplicates are ignored, whatever their case or '#'
    await tagInput.pressSequentially(`#${bySpace.toUpperCase()} `);
    await tagInput.pressSequentially("travel,");
    await expect(chips).toHaveCount(4);
    await expect(page.getByText("Tags (4/5)", { exact: true })).toBeVisible();
    await expect(tagInput).toHaveValue("");
    // Backspace deletes text first; on an empty input it removes the last tag
    await tagInput.pressSequentially("ab");
    await tagInput.press("Backspace");
    await tagInput.press("Backspace");
    await expect(tagInput).toHaveValue("");
    await expect(chips).toHaveCount(4);
    await tagInput.press("Backspace");
    await expect(chips).toHaveText([`#${bySpace}×`, `#${byComma}×`, `#${byEnter}×`]);
    await expect(page.getByText("Tags (3/5)", { exact: true })).toBeVisible();
    // a suggestion chip adds its tag
    await suggestions.filter({ hasText: /^#tech$/ }).click();
    await expect(chips).toHaveText([`#${bySpace}×`, `#${byComma}×`, `#${byEnter}×`, "#tech×"]);
    await expect(suggestions).toHaveText(["#thoughts", "#life", "#work", "#travel", "#food", "#books", "#music", "#art"]);
    await tagInput.pressSequentially("#Travel");
    await tagInput.press("Enter");
    const tags = [bySpace, byComma, byEnter, "tech", "travel"];
    await expect(chips).toHaveText(tags.map((t) => `#${t}×`));
    await expect(page.getByText("Tags (5/5)", { exact: true })).toBeVisible();
    await expect(tagInput).toBeDisabled();
    await expect(tagInput).toHaveAttribute("placeholder", "5 tags maximum");
    await expect(suggestions).toHaveCount(0);

    // Post
    const text = `Created through the form ${unique("c")}`;
    await content.fill(text);
    await expect(counter).toHaveText(`${1000 - text.length} characters remaining`);
    await postButton.click();
    await expectToast(page, "Echo posted successfully", "success");
    await expectUrl(page, "/");
    const first = page.getByTestId("echo-card").first();
    await expect(first).toBeVisible();
    const ids = await cardIds(page);
    const mine = page.getByTestId("echo-card").filter({ has: page.locator(".echo-content", { hasText: text }) });
    const id = (await mine.getAttribute("data-echo-id"))!;
    // Ours is the first card. A parallel test may post in the same instant; an echo newer than
    // ours then rightly sits above it, but nothing older may.
    const above = ids.slice(0, ids.indexOf(id));
    expect(above.filter((other) => other < id), `cards above ${id}: ${above.join(", ")}`).toEqual([]);
    if (above.length === 0) await expect(first).toHaveAttribute("data-echo-id", id);
    await expect(mine.locator(".echo-content")).toHaveText(text);
    await expect(mine.getByRole("link", { name: `@${user.userName}` })).toBeVisible();
    const tagLinks = mine.locator(".echo-tags a");
    await expect(tagLinks).toHaveText(tags.map((t) => `#${t}`));
    for (const [i, t] of tags.entries()) await expect(tagLinks.nth(i)).toHaveAttribute("href", `/tag/${t}`);
    // and the server stored exactly that
    const stored = await (await page.request.get(`/api/echo/echo/${id}`)).json();
    expect(stored.echo.tags.map((t: { name: string }) => t.name)).toEqual(tags);
    expect(stored.echo.content).toBe(text);
  });

  test("a tag left in the box is added on Post; Post shows 'Posting...' and is disabled while sending", async ({ page }) => {
    await signedInPage(page, "cb");
    await open(page, "/new");
    const tag = unique("pend");
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill(`Pending tag ${tag}`);
    await page.locator("#echo-tags").pressSequentially(`#${tag.toUpperCase()}`);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/echo/post", async (route) => {
      await held;
      await route.continue();
    });
    const sent = page.waitForRequest("**/api/echo/post");
    await page.getByRole("button", { name: "Post", exact: true }).click();
    expect((await sent).postDataJSON()).toEqual({ content: `Pending tag ${tag}`, tags: [tag] });
    await expect(page.getByRole("button", { name: "Posting..." })).toBeDisabled();
    release();
    await expectToast(page, "Echo posted successfully", "success");
    await expectUrl(page, "/");
  });

  test("a failed post shows the server's error, else 'Failed to post echo', and keeps the text", async ({ page }) => {
    await signedInPage(page, "cf");
    await open(page, "/new");
    const content = page.getByRole("textbox", { name: "What's on your mind?" });
    await content.fill("This will not be posted");
    const answers = [
      { status: 500, body: "" },
      { status: 400, body: JSON.stringify({ error: "content is required", message: "content is required" }) },
    ];
    await page.route("**/api/echo/post", (route) => route.fulfill({ ...answers.shift()!, contentType: "application/json" }));
    const post = page.getByRole("button", { name: "Post", exact: true });
    await post.click();
    await expectToast(page, "Failed to post echo", "error");
    await expect(post).toBeEnabled();
    await post.click();
    await expectToast(page, "content is required", "error");
    await expectUrl(page, "/new");
    await expect(content).toHaveValue("This will not be posted");
    await expect(toast(page, "Echo posted successfully")).toHaveCount(0);
  });
});

test.describe("Echo detail (/echo/{id})", () => {
  test("Open link leads to the echo: author link, content as plain text, tag links", async ({ page }) => {
    const user = await signedInPage(page, "dt");
    const tag = unique("dt");
    const text = `Hello <b>bold</b><script>x</script> & "quotes" ${tag}`;
    const echo = await postEcho(page.request, text, [tag, "#Detail"]);
    await open(page, "/");
    const listed = await scrollToCard(page, echo._id);
    await listed.getByRole("link", { name: "Open echo" }).click();
    await expectUrl(page, `/echo/${echo._id}`);

    const detail = page.getByTestId("echo-card");
    await expect(detail).toHaveCount(1);
    await expect(detail).toHaveAttribute("data-echo-id", echo._id);
    await expect(page.getByRole("button", { name: "← Back" })).toBeVisible();
    await expect(detail.getByRole("link", { name: `@${user.userName}` })).toHaveAttribute("href", `/user/${user._id}`);
    await expect(detail.locator("time")).toHaveAttribute("datetime", echo.createdAt);
    const body = detail.locator(".echo-content");
    await expect(body).toHaveText(text);
    await expect(body.locator("b")).toHaveCount(0);
    await expect(body.locator("script")).toHaveCount(0);
    expect(await body.evaluate((el) => el.innerHTML)).toBe(text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
    const tagLinks = detail.locator(".echo-tags a");
    await expect(tagLinks).toHaveText([`#${tag}`, "#detail"]);
    await expect(tagLinks.nth(0)).toHaveAttribute("href", `/tag/${tag}`);
    await expect(tagLinks.nth(1)).toHaveAttribute("href", "/tag/detail");
    await expect(detail.getByRole("link", { name: "Open echo" })).toHaveCount(0);

    await tagLinks.nth(0).click();
    await expectUrl(page, `/tag/${tag}`);
    await expect(page.getByRole("heading", { name: `#${tag}` })).toBeVisible();
    await expect(page.getByTestId("echo-card")).toHaveCount(1);
    await expect(card(page, echo._id)).toBeVisible();
  });

  test("clicking an echo's text on the list opens it; Back returns", async ({ page }) => {
    await signedInPage(page, "dc");
    const echo = await postEcho(page.request, `Click my text ${unique("t")}`);
    await open(page, "/");
    const listed = await scrollToCard(page, echo._id);
    await listed.locator(".echo-content").click();
    await expectUrl(page, `/echo/${echo._id}`);
    await page.getByRole("button", { name: "← Back" }).click();
    await expectUrl(page, "/");
  });
});

test.describe("Likes", () => {
  test("like and unlike on the detail page: count and pressed state update and persist", async ({ page, browser, baseURL }) => {
    await signedInPage(page, "lk");
    const echo = await postEcho(page.request, `Like me ${unique("t")}`);
    const other = await otherUser(browser, baseURL);
    await likeEcho(other.page.request, echo._id); // someone else's like: the count starts at 1
    await other.context.close();

    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id);
    await expectLikeState(detail, false, 1);
    // likes are optimistic: wait for the server's answer before reloading to check it persisted
    const answer = () => page.waitForResponse((res) => new URL(res.url()).pathname === `/api/echo/like/${echo._id}`);
    let answered = answer();
    await likeButton(detail).click();
    await expectLikeState(detail, true, 2);
    expect((await answered).status()).toBe(200);
    await page.reload();
    await waitForApp(page);
    await expectLikeState(detail, true, 2);
    answered = answer();
    await likeButton(detail).click();
    await expectLikeState(detail, false, 1);
    expect((await answered).status()).toBe(200);
    await page.reload();
    await waitForApp(page);
    await expectLikeState(detail, false, 1);
    const stored = await (await page.request.get(`/api/echo/echo/${echo._id}`)).json();
    expect([stored.echo.likes, stored.echo.isLiked]).toEqual([1, false]);
  });

  test("like and unlike on the home list: count and pressed state update and persist", async ({ page }) => {
    await signedInPage(page, "lh");
    const echo = await postEcho(page.request, `Like me on the list ${unique("t")}`);
    await open(page, "/");
    let listed = await scrollToCard(page, echo._id);
    await expectLikeState(listed, false, 0);
    // likes are optimistic: wait for the server's answer before reloading to check it persisted
    let answered = page.waitForResponse((res) => new URL(res.url()).pathname === `/api/echo/like/${echo._id}`);
    await likeButton(listed).click();
    await expectLikeState(listed, true, 1);
    expect((await answered).status()).toBe(200);
    await open(page, "/");
    listed = await scrollToCard(page, echo._id);
    await expectLikeState(listed, true, 1);
    answered = page.waitForResponse((res) => new URL(res.url()).pathname === `/api/echo/like/${echo._id}`);
    await likeButton(listed).click();
    await expectLikeState(listed, false, 0);
    expect((await answered).status()).toBe(200);
    await open(page, "/");
    listed = await scrollToCard(page, echo._id);
    await expectLikeState(listed, false, 0);
    // the detail page agrees with the list
    await open(page, `/echo/${echo._id}`);
    await expectLikeState(card(page, echo._id), false, 0);
  });

  test("clicks during an in-flight like are queued, not dropped: the last one wins, on screen and on the server", async ({ page }) => {
    await signedInPage(page, "lq");
    const echo = await postEcho(page.request, `Like me twice ${unique("t")}`);
    // each like request waits at a gate the test opens, so the next clicks land while it is on its way
    const sent: string[] = [];
    let openGate = () => {};
    let gate = Promise.resolve();
    const closeGate = () => (gate = new Promise<void>((r) => (openGate = r)));
    await page.route(`**/api/echo/like/${echo._id}`, async (route) => {
      sent.push(route.request().method());
      await gate;
      await route.continue();
    });
    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id);
    await expectLikeState(detail, false, 0);
    const stored = async () => (await (await page.request.get(`/api/echo/echo/${echo._id}`)).json()).echo as { likes: number; isLiked: boolean };
    const settled = async (liked: boolean, count: number) => {
      await expectLikeState(detail, liked, count);
      await expect.poll(async () => [(await stored()).isLiked, (await stored()).likes]).toEqual([liked, count]);
    };
    // like, then unlike before the like's answer: ends unliked (the second click used to be lost)
    closeGate();
    await likeButton(detail).click();
    await expect.poll(() => sent.length).toBe(1);
    await likeButton(detail).click();
    await expectLikeState(detail, false, 0);
    openGate();
    await settled(false, 0);
    expect(sent).toEqual(["POST", "DELETE"]);
    // three clicks during one request: liked, with one request for the first wish and none for the two that cancel
    sent.length = 0;
    closeGate();
    await likeButton(detail).click();
    await expect.poll(() => sent.length).toBe(1);
    await likeButton(detail).click();
    await likeButton(detail).click();
    await expectLikeState(detail, true, 1);
    openGate();
    await settled(true, 1);
    await page.waitForTimeout(600);
    await expectLikeState(detail, true, 1);
    expect(sent).toEqual(["POST"]);
  });
});

test.describe("Echo menu", () => {
  test("Copy Link puts the echo's URL on the clipboard and counts a share", async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await signedInPage(page, "cp");
    const echo = await postEcho(page.request, `Copy my link ${unique("t")}`);
    await open(page, `/echo/${echo._id}`);
    const menu = await openMenu(card(page, echo._id));
    await menu.getByRole("menuitem", { name: "Copy Link" }).click();
    await expectToast(page, "Link copied", "success");
    await expect(menu).toBeHidden();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/echo/${echo._id}`);
    await expect
      .poll(async () => (await (await page.request.get(`/api/echo/echo/${echo._id}`)).json()).echo.shares)
      .toBe(1);
  });

  test("Share copies the URL where the browser has no native share", async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await context.addInitScript(() => {
      // Chromium on Linux has no Web Share; make sure of it
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await signedInPage(page, "sh");
    const echo = await postEcho(page.request, `Share me ${unique("t")}`);
    await open(page, "/");
    const listed = await scrollToCard(page, echo._id);
    await listed.getByRole("button", { name: "Share" }).click();
    await expectToast(page, "Link copied", "success");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/echo/${echo._id}`);
  });

  test("the menu closes on a click outside it and on Escape", async ({ page }) => {
    await signedInPage(page, "mc");
    const echo = await postEcho(page.request, `Menu ${unique("t")}`);
    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id);
    const toggle = detail.getByRole("button", { name: "Echo menu" });
    let menu = await openMenu(detail);
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.locator("main").click({ position: { x: 5, y: 5 } }); // empty padding of the page
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    menu = await openMenu(detail);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
    // the button still toggles
    menu = await openMenu(detail);
    await toggle.click();
    await expect(menu).toBeHidden();
  });

  test("the author deletes after a confirm; dismissing keeps the echo; the URL then shows not found", async ({ page }) => {
    await signedInPage(page, "dl");
    const echo = await postEcho(page.request, `Delete me ${unique("t")}`);
    await open(page, "/");
    const listed = await scrollToCard(page, echo._id);
    let menu = await openMenu(listed);
    await expect(menu.getByRole("menuitem")).toHaveText(["Copy Link", "Save to Scroll", "Edit Echo", "Delete Echo"]);

    const dialogs: string[] = [];
    page.once("dialog", (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await menu.getByRole("menuitem", { name: "Delete Echo" }).click();
    await expect.poll(() => dialogs).toEqual(["confirm: Are you sure you want to delete this echo?"]);
    await expect(menu).toBeHidden();
    await expect(listed).toBeVisible();
    expect((await page.request.get(`/api/echo/echo/${echo._id}`)).status()).toBe(200);
    await expect(toast(page, "Echo deleted successfully")).toHaveCount(0);

    page.once("dialog", (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    menu = await openMenu(listed);
    await menu.getByRole("menuitem", { name: "Delete Echo" }).click();
    await expectToast(page, "Echo deleted successfully", "success");
    expect(dialogs).toHaveLength(2);
    await expect(listed).toHaveCount(0);
    expect((await page.request.get(`/api/echo/echo/${echo._id}`)).status()).toBe(404);

    const response = await open(page, `/echo/${echo._id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Echo not found", { exact: true })).toBeVisible();
    await expect(page.getByText("This echo may have been deleted or doesn't exist.", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Go back" }).click();
    await expectUrl(page, "/");
  });

  test("deleting from the detail page goes to / and the echo is gone", async ({ page }) => {
    await signedInPage(page, "dd");
    const echo = await postEcho(page.request, `Delete me from detail ${unique("t")}`);
    await open(page, `/echo/${echo._id}`);
    page.once("dialog", (dialog) => void dialog.accept());
    const menu = await openMenu(card(page, echo._id));
    await menu.getByRole("menuitem", { name: "Delete Echo" }).click();
    await expectToast(page, "Echo deleted successfully", "success");
    await expectUrl(page, "/");
    await expect(page.getByRole("heading", { name: "All Echos" })).toBeVisible();
    await expect(card(page, echo._id)).toHaveCount(0);
  });

  test("an unknown echo id shows the not-found state; Go back stays in the app when opened directly", async ({ page }) => {
    await signedInPage(page, "nf");
    const response = await open(page, "/echo/01aaaaaaaaaaaaaaaaaaaaaaaa");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Echo not found", { exact: true })).toBeVisible();
    await expect(page.getByText("This echo may have been deleted or doesn't exist.", { exact: true })).toBeVisible();
    // the tab's previous entry is about:blank: going "back" there would leave the app
    await page.getByRole("button", { name: "Go back" }).click();
    await expectUrl(page, "/");
    await expect(page.getByRole("heading", { name: "All Echos" })).toBeVisible();
  });

  test("← Back on an echo opened directly (a shared link) goes to /", async ({ page }) => {
    await signedInPage(page, "bk");
    const echo = await postEcho(page.request, `Shared link ${unique("t")}`);
    await open(page, `/echo/${echo._id}`);
    await page.getByRole("button", { name: "← Back" }).click();
    await expectUrl(page, "/");
  });

  test("another user sees Report, not Delete Echo; Report asks a reason, confirms, and refuses a second report", async ({ page, request }) => {
    await signUp(request, "ra"); // the author, API only
    const echo = await postEcho(request, `Report me ${unique("t")}`);
    await signedInPage(page, "rr");
    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id);
    let menu = await openMenu(detail);
    await expect(menu.getByRole("menuitem")).toHaveText(["Copy Link", "Save to Scroll", "Report"]);
    await expect(menu.getByRole("menuitem", { name: "Delete Echo" })).toHaveCount(0);

    // Cancel closes without reporting
    await menu.getByRole("menuitem", { name: "Report" }).click();
    const dialog = page.getByRole("dialog", { name: "Report echo" });
    await expect(dialog).toBeVisible();
    await expect(menu).toBeHidden();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    menu = await openMenu(detail);
    await menu.getByRole("menuitem", { name: "Report" }).click();
    await expect(dialog).toBeVisible();
    const reasons = dialog.getByRole("group", { name: "Why are you reporting this echo?" });
    await expect(reasons.getByRole("radio")).toHaveCount(4);
    await expect(reasons.getByRole("radio", { name: "Spam" })).toBeChecked();
    for (const name of ["Harassment", "Misinformation", "Something else"]) await expect(reasons.getByRole("radio", { name })).toBeVisible();
    await reasons.getByRole("radio", { name: "Harassment" }).check();
    await dialog.getByRole("textbox", { name: "Details (optional)" }).fill("  rude words  ");
    const sent = page.waitForRequest((req) => req.url().endsWith(`/api/echo/${echo._id}/report`));
    await dialog.getByRole("button", { name: "Report", exact: true }).click();
    expect((await sent).postDataJSON()).toEqual({ reason: "Harassment: rude words" });
    await expectToast(page, "Thanks, we received your report", "success");
    await expect(dialog).toBeHidden();

    menu = await openMenu(detail);
    await menu.getByRole("menuitem", { name: "Report" }).click();
    await expect(dialog).toBeVisible();
    const again = page.waitForResponse((res) => res.url().endsWith(`/api/echo/${echo._id}/report`));
    await dialog.getByRole("button", { name: "Report", exact: true }).click();
    expect((await again).status()).toBe(409);
    await expectToast(page, "You have already reported this echo", "error");
    await expect(dialog).toBeVisible(); // the user can still cancel
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
});

test.describe("Tag page (/tag/{name})", () => {
  test("order and time dropdowns re-fetch and order the echos", async ({ page, request }) => {
    const tag = unique("tg");
    await signUp(request, "ta"); // the author, API only
    const oldest = await postEcho(request, `first ${tag}`, [tag]);
    const middle = await postEcho(request, `second ${tag}`, [tag]);
    const newest = await postEcho(request, `third ${tag}`, [tag]);
    await signedInPage(page, "tv");
    // likes: oldest 2 (author + viewer), newest 1 (author), middle 0
    await likeEcho(request, oldest._id);
    await likeEcho(page.request, oldest._id);
    await likeEcho(request, newest._id);
    const byId = [oldest, middle, newest].map((e) => e._id);
    const newestFirst = [...byId].sort().reverse();
    expect(newestFirst).toEqual([newest._id, middle._id, oldest._id]); // ids sort by creation time

    await open(page, `/tag/${tag}`);
    await expect(page.getByRole("heading", { name: `#${tag}` })).toBeVisible();
    const order = page.getByRole("combobox", { name: "Order" });
    const time = page.getByRole("combobox", { name: "Time" });
    await expect(order.locator("option")).toHaveText(["Newest First", "Oldest First", "Most Liked"]);
    await expect(time.locator("option")).toHaveText(["All Time", "Last Hour", "Last Day", "Last Week", "Last Month", "Last Year"]);
    await expect(order).toHaveValue("newest");
    await expect(time).toHaveValue("all");
    const cards = page.getByTestId("echo-card");
    const expectOrder = async (ids: string[]) => {
      await expect(cards).toHaveCount(ids.length);
      await expect.poll(() => cardIds(page)).toEqual(ids);
    };
    await expectOrder(newestFirst);
    await expect(page.getByText("You've reached the end")).toBeVisible();

    /** Choose an option and wait for the page's data to be fetched again with these params. */
    const choose = async (select: typeof order, label: string, search: string) => {
      const refetch = page.waitForResponse(
        (res) => {
          const url = new URL(res.url());
          return url.pathname.startsWith(`/tag/${tag}`) && url.search.replace(/[?&]_routes=[^&]*/, "") === search;
        },
        { timeout: 7_000 },
      );
      await select.selectOption({ label });
      expect((await refetch).ok()).toBe(true);
      await expectUrl(page, `/tag/${tag}`, search);
    };

    await choose(order, "Oldest First", "?orderBy=oldest");
    await expectOrder([oldest._id, middle._id, newest._id]);
    await choose(order, "Most Liked", "?orderBy=likes");
    await expectOrder([oldest._id, newest._id, middle._id]);
    await expect(cards.locator(".like-count")).toHaveText(["2", "1", "0"]);
    await expect(likeButton(card(page, oldest._id))).toHaveAttribute("aria-pressed", "true");
    await expect(likeButton(card(page, newest._id))).toHaveAttribute("aria-pressed", "false");

    // all three were posted a moment ago, so every window holds them all, in the chosen order
    for (const [label, value] of [
      ["Last Hour", "1hour"],
      ["Last Day", "1day"],
      ["Last Week", "1week"],
      ["Last Month", "1month"],
      ["Last Year", "1year"],
    ] as const) {
      await choose(time, label, `?orderBy=likes&timeframe=${value}`);
      await expect(time).toHaveValue(value);
      await expectOrder([oldest._id, newest._id, middle._id]);
    }
    await choose(time, "All Time", "?orderBy=likes");
    await expectOrder([oldest._id, newest._id, middle._id]);
    await choose(order, "Newest First", "");
    await expectOrder(newestFirst);

    // the choice lives in the address: a reload keeps it
    await open(page, `/tag/${tag}?orderBy=oldest&timeframe=1day`);
    await expect(order).toHaveValue("oldest");
    await expect(time).toHaveValue("1day");
    await expectOrder([oldest._id, middle._id, newest._id]);
  });

  test("an unused tag shows the empty state", async ({ page }) => {
    await signedInPage(page, "te");
    const tag = unique("none");
    await open(page, `/tag/${tag}`);
    await expect(page.getByRole("heading", { name: `#${tag}` })).toBeVisible();
    await expect(page.getByText("No echos found", { exact: true })).toBeVisible();
    await expect(page.getByText(`No one has posted with #${tag} yet.`, { exact: true })).toBeVisible();
    await expect(page.getByTestId("echo-card")).toHaveCount(0);
    await expect(page.getByText("You've reached the end")).toHaveCount(0);
  });
});

test.describe("Infinite scroll", () => {
  test("60 echos load page by page while scrolling, never all in the DOM, until 'You've reached the end'", async ({ page }) => {
    test.setTimeout(120_000);
    await signedInPage(page, "is");
    const tag = unique("inf");
    const posted: string[] = [];
    for (let i = 0; i < 60; i++) posted.push((await postEcho(page.request, `Scroll echo ${i + 1} of 60 ${tag}`, [tag]))._id);
    const expected = [...posted].sort().reverse(); // newest first

    const pageRequests: string[] = [];
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.pathname === `/api/echo/tag/${tag}`) pageRequests.push(url.searchParams.get("page") ?? "?");
    });
    await open(page, `/tag/${tag}`);
    const end = page.getByText("You've reached the end");
    const skeletons = page.getByTestId("skeletons");
    const seen = new Map<number, string>();
    let mostInDom = 0;
    const collect = async () => {
      const rows = await page.locator('[data-testid="echo-list"] > .echo-row').evaluateAll((els) =>
        els.map((el) => [Number(el.getAttribute("data-index")), el.querySelector("[data-testid=echo-card]")?.getAttribute("data-echo-id") ?? ""] as const),
      );
      mostInDom = Math.max(mostInDom, rows.length);
      for (const [index, id] of rows) {
        const before = seen.get(index);
        expect(before === undefined || before === id, `row ${index} was ${before}, now ${id}`).toBe(true);
        seen.set(index, id);
      }
    };

    await collect();
    expect(seen.size).toBeLessThanOrEqual(20); // the first page only
    for (let step = 0; step < 200; step++) {
      await page.mouse.wheel(0, 500);
      await settle(page);
      await expect(skeletons).toHaveCount(0);
      await settle(page);
      await collect();
      const atBottom = await page.evaluate(() => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2);
      if (atBottom && (await end.isVisible())) break;
    }
    await expect(end).toBeVisible();
    await collect();

    expect(new Set(seen.values()).size).toBe(60);
    expect([...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, id]) => id)).toEqual(expected);
    expect(mostInDom, "rows mounted at once").toBeLessThan(60);
    expect(await page.getByTestId("echo-card").count()).toBeLessThan(60);
    expect(pageRequests).toEqual(["2", "3"]);
  });
});
