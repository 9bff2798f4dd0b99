// What a new user met (issue 12): the landing page says what Echo is, a new echo is visible right
// after posting, likes answer at once and roll back on failure, failures say what happened with a
// Retry, and the smaller rough edges (headings, "already in that scroll", the popular summary).
import { expect, test } from "@playwright/test";
import { expectPath, expectToastShown, expectUrl, open, recordPosts, signedInPage, toast, unique } from "./helpers";
import { card, expectLikeState, expectToast, likeButton, openMenu, postEcho } from "./echo-helpers";
import { addEchoToScroll, createCuration, createFeed, uniqueTag } from "./scroll-helpers";

test("the signed-out landing page says what Echo is", async ({ page }) => {
  await open(page, "/login");
  await expect(page.getByTestId("echo-description")).toHaveText(/^Echo is a place for short notes\./);
  await open(page, "/signup");
  await expect(page.getByTestId("echo-description")).toBeVisible();
});

test("echo detail and not-found pages have an h1", async ({ page }) => {
  const user = await signedInPage(page, "h1");
  const echo = await postEcho(page.request, `Heading check ${unique()}`);
  await open(page, `/echo/${echo._id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Echo by ${user.userName}`);
  await open(page, "/echo/01aaaaaaaaaaaaaaaaaaaaaaaa");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Echo not found");
  await open(page, "/no/such/page");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
});

test("saving an echo already in the curation says it's already there", async ({ page }) => {
  await signedInPage(page, "al");
  const tag = uniqueTag("al");
  const shelf = await createCuration(page.request, `Shelf ${tag.slice(-5)}`);
  const echo = await postEcho(page.request, "Saved once", [tag]);
  await addEchoToScroll(page.request, shelf._id, echo._id);
  await open(page, `/tag/${tag}`);
  const menu = await openMenu(card(page, echo._id));
  await menu.getByRole("menuitem", { name: "Save to Scroll" }).click();
  const dialog = page.getByRole("dialog", { name: "Save to Scroll" });
  await dialog.getByRole("radio", { name: new RegExp(`^${shelf.name} `) }).check();
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expectToastShown(page, "This echo is already in that scroll");
  await expect(toast(page, "Echo added to scroll")).toHaveCount(0);
});

test("a new echo is visible on Home right after posting, even when the selected feed leaves it out", async ({ page }) => {
  await signedInPage(page, "pv");
  const tag = uniqueTag("pv");
  const feed = await createFeed(page.request, `Only ${tag}`, { includedTags: [tag] });
  await open(page, "/new");
  const text = `Not in my feed ${unique()}`;
  await page.getByRole("textbox", { name: "What's on your mind?" }).fill(text);
  const posted = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/echo/post");
  await page.getByRole("button", { name: "Post", exact: true }).click();
  const { echo } = (await (await posted).json()) as { echo: { _id: string } };
  await expectUrl(page, "/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(feed.name); // the selected feed
  const notice = page.getByRole("region", { name: "Your echo is posted" });
  await expect(notice.getByTestId("echo-card")).toHaveAttribute("data-echo-id", echo._id);
  await expect(notice.getByText(text)).toBeVisible();
  await notice.getByRole("link", { name: "View" }).click();
  await expectUrl(page, `/echo/${echo._id}`);
  await page.goBack();
  await expectPath(page, "/");
  await page.getByRole("region", { name: "Your echo is posted" }).getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("region", { name: "Your echo is posted" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(feed.name);
  await expect(page.getByRole("region", { name: "Your echo is posted" })).toHaveCount(0);
});

test.describe("optimistic likes", () => {
  test("the heart and count change before the server answers, and focus stays on the button", async ({ page }) => {
    await signedInPage(page, "ol");
    const echo = await postEcho(page.request, `Like me ${unique()}`);
    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/api/echo/like/${echo._id}`, async (route) => {
      await held;
      await route.continue();
    });
    await likeButton(detail).focus();
    await page.keyboard.press("Enter");
    await expectLikeState(detail, true, 1); // while the request is held
    await expect(likeButton(detail)).toBeEnabled();
    await expect(likeButton(detail)).toBeFocused();
    const answered = page.waitForResponse(`**/api/echo/like/${echo._id}`);
    release();
    expect((await answered).status()).toBe(200);
    await expectLikeState(detail, true, 1);
    await expect(likeButton(detail)).toBeFocused();
    const stored = await (await page.request.get(`/api/echo/echo/${echo._id}`)).json();
    expect([stored.echo.likes, stored.echo.isLiked]).toEqual([1, true]);
  });

  test("a like the server fails rolls back and says so", async ({ page }) => {
    await signedInPage(page, "of");
    const echo = await postEcho(page.request, `Failing like ${unique()}`);
    await open(page, `/echo/${echo._id}`);
    const detail = card(page, echo._id);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // the test server runs with FAULT_INJECTION=1: this header makes every D1 call fail
    await page.route(`**/api/echo/like/${echo._id}`, async (route) => {
      await held;
      await route.continue({ headers: { ...route.request().headers(), "x-echo-fault": "d1" } });
    });
    await likeButton(detail).click();
    await expectLikeState(detail, true, 1);
    const answered = page.waitForResponse(`**/api/echo/like/${echo._id}`);
    release();
    expect((await answered).status()).toBe(503); // a failing D1 is "temporarily unavailable"
    await expectLikeState(detail, false, 0);
    await expectToast(page, "Service temporarily unavailable, please try again", "error");
    const stored = await (await page.request.get(`/api/echo/echo/${echo._id}`)).json();
    expect([stored.echo.likes, stored.echo.isLiked]).toEqual([0, false]);
  });
});

test.describe("failures say what happened and offer a Retry", () => {
  test("posting offline says so in the form; Retry posts once back online", async ({ page, context }) => {
    await signedInPage(page, "po");
    await open(page, "/new");
    const text = `Offline draft ${unique()}`;
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill(text);
    await context.setOffline(true);
    await page.getByRole("button", { name: "Post", exact: true }).click();
    const failure = page.getByRole("alert");
    await expect(failure).toContainText("Failed to post echo. Check your connection and try again.");
    await expect(page.getByRole("textbox", { name: "What's on your mind?" })).toHaveValue(text);
    await context.setOffline(false);
    await failure.getByRole("button", { name: "Retry" }).click();
    await expectUrl(page, "/");
    await expect(page.getByText(text).first()).toBeVisible();
  });

  test("a next page that fails says so with a Retry instead of 'You've reached the end'", async ({ page }) => {
    test.setTimeout(120_000);
    await signedInPage(page, "np");
    const tag = uniqueTag("np");
    for (let i = 0; i < 25; i++) await postEcho(page.request, `Paged echo ${i + 1} ${tag}`, [tag]);
    let failNext = true;
    await page.route((url) => url.pathname === `/api/echo/tag/${tag}`, async (route) => {
      if (failNext) {
        failNext = false;
        await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "D1_ERROR: internal detail" }) });
      } else await route.continue();
    });
    await open(page, `/tag/${tag}`);
    await expect(page.getByTestId("echo-card")).toHaveCount(20);
    const failure = page.getByRole("alert").filter({ hasText: "Couldn't load more echos." });
    for (let i = 0; i < 30 && !(await failure.isVisible()); i++) await page.mouse.wheel(0, 800);
    await expect(failure).toBeVisible();
    await expect(page.getByText("D1_ERROR")).toHaveCount(0); // no raw server text
    await expect(page.getByText("You've reached the end")).toHaveCount(0);
    await failure.getByRole("button", { name: "Retry" }).click();
    await expect(failure).toHaveCount(0);
    for (let i = 0; i < 30 && !(await page.getByText("You've reached the end").isVisible()); i++) await page.mouse.wheel(0, 800);
    await expect(page.getByText("You've reached the end")).toBeVisible();
    await expect(page.getByText(`Paged echo 1 ${tag}`)).toBeVisible();
  });
});

test("leaving /new with an unposted draft asks first; cancelling keeps the draft", async ({ page }) => {
  await signedInPage(page, "dr");
  await open(page, "/new");
  const box = page.getByRole("textbox", { name: "What's on your mind?" });
  await box.fill("A thought worth keeping");
  const feedLink = page.getByRole("link", { name: "Feed", exact: true }).first();

  const asked: string[] = [];
  page.once("dialog", (dialog) => (asked.push(dialog.message()), void dialog.dismiss()));
  await feedLink.click();
  await expect.poll(() => asked).toEqual(["Leave this page? Your unposted echo will be lost."]);
  await expectUrl(page, "/new");
  await expect(box).toHaveValue("A thought worth keeping");

  page.once("dialog", (dialog) => void dialog.accept());
  await feedLink.click();
  await expectUrl(page, "/");
});

test("the feed form's author search is a combobox: arrows move, Enter picks without submitting, Escape closes", async ({ page, playwright, baseURL }) => {
  await signedInPage(page, "cx");
  const prefix = unique("cx").slice(0, 20);
  const api = await playwright.request.newContext({ baseURL });
  for (const suffix of ["a", "b"]) {
    const res = await api.post("/api/auth/signup", { data: { userName: `${prefix}${suffix}`, password: "pass1234" } });
    expect(res.status()).toBe(201);
    await api.post("/api/auth/logout");
  }
  await api.dispose();
  await open(page, "/scroll/new");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Keyboard feed");
  const posts = recordPosts(page);

  const search = page.getByRole("combobox", { name: /^Authors/ });
  const options = page.getByRole("listbox", { name: "Matching users" }).getByRole("option");
  await search.focus();
  await search.pressSequentially(prefix);
  await expect(options).toHaveText([`@${prefix}a`, `@${prefix}b`]);
  await expect(search).toHaveAttribute("aria-expanded", "true");
  await expect(search).not.toHaveAttribute("aria-activedescendant");

  const activeOption = async () => {
    const id = await search.getAttribute("aria-activedescendant");
    return id ? page.locator(`[id="${id}"]`).textContent() : null;
  };
  await search.press("ArrowDown");
  await expect.poll(activeOption).toBe(`@${prefix}a`);
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await search.press("ArrowDown");
  await expect.poll(activeOption).toBe(`@${prefix}b`);
  await search.press("ArrowDown"); // wraps
  await expect.poll(activeOption).toBe(`@${prefix}a`);
  await search.press("ArrowUp");
  await expect.poll(activeOption).toBe(`@${prefix}b`);
  await expect(search).toBeFocused();

  await search.press("Enter");
  await expect(page.getByRole("button", { name: `Remove ${prefix}b` })).toBeVisible();
  await expect(search).toHaveValue("");
  await expect(search).toHaveAttribute("aria-expanded", "false");
  await expectPath(page, "/scroll/new");

  await search.pressSequentially(prefix);
  await expect(options).toHaveText([`@${prefix}a`]);
  await search.press("Enter"); // nothing highlighted: neither picks nor submits
  await expect(page.getByRole("button", { name: `Remove ${prefix}a` })).toHaveCount(0);
  await search.press("Escape");
  await expect(search).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("listbox", { name: "Matching users" })).toBeHidden();
  await expect(search).toHaveValue(prefix);
  await search.press("ArrowDown"); // reopens on the first suggestion
  await expect(search).toHaveAttribute("aria-expanded", "true");
  await expect.poll(activeOption).toBe(`@${prefix}a`);
  await search.press("Enter");
  await expect(page.getByRole("button", { name: `Remove ${prefix}a` })).toBeVisible();

  // Enter never submitted the feed form (the live preview's POSTs only read: issue 16)
  expect(posts.filter((path) => path !== "/api/scroll/preview")).toEqual([]);
  await expectPath(page, "/scroll/new");
});

test("Back from an echo opened deep in a feed restores the loaded pages and the scroll position", async ({ page }) => {
  test.setTimeout(150_000);
  await signedInPage(page, "bk");
  const tag = uniqueTag("bk");
  const ids: string[] = [];
  for (let i = 0; i < 45; i++) ids.push((await postEcho(page.request, `Deep echo ${i + 1} ${tag}`, [tag]))._id);
  const newestFirst = [...ids].reverse();
  const pageRequests: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.pathname === `/api/echo/tag/${tag}`) pageRequests.push(url.searchParams.get("page") ?? "?");
  });
  await open(page, `/tag/${tag}`);
  const target = card(page, newestFirst[42]!); // on page 3
  for (let i = 0; i < 80 && !(await target.isVisible()); i++) {
    await page.mouse.wheel(0, 600);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await target.scrollIntoViewIfNeeded();
  expect(pageRequests).toEqual(["2", "3"]);
  await target.locator(".echo-content").click();
  await expectUrl(page, `/echo/${newestFirst[42]}`);

  await page.goBack();
  await expectPath(page, `/tag/${tag}`);
  // The URL changes at once, but the echo's page stays on screen until the tag page's data is in,
  // and its own card of that echo (in the viewport, one card) would pass the next two checks: wait
  // for the tag page first.
  await expect(page.getByRole("heading", { level: 1, name: `#${tag}` })).toBeVisible();
  await expect(card(page, newestFirst[42]!)).toBeInViewport();
  // the restored rows flow normally until the virtualiser takes over (fewer rows in the DOM);
  // scrolling in that moment can be pulled back a little (known, see the report / issue 12).
  // Until then all 45 rows are in the DOM, page 2's among them, so the steps below would stop
  // before the first one (isVisible does not look at the viewport).
  await expect.poll(() => page.getByTestId("echo-list").getByTestId("echo-card").count()).toBeLessThan(45);
  await expect(card(page, newestFirst[42]!)).toBeInViewport();
  // pages 2 and 3 came back without being fetched again: scrolling up reaches page 2's rows
  const onPage2 = card(page, newestFirst[25]!);
  // steps of a reader's pace, each given a moment to settle (a step taken while the restore is
  // still placing rows can be pulled back, see above)
  for (let i = 0; i < 60 && !(await onPage2.isVisible()); i++) {
    await page.evaluate(() => new Promise((r) => (window.scrollBy(0, -400), requestAnimationFrame(() => requestAnimationFrame(r)))));
    await page.waitForTimeout(150);
  }
  await expect(onPage2).toBeVisible();
  expect(pageRequests).toEqual(["2", "3"]);
});
