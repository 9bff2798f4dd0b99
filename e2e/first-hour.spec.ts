// A new user's first hour (issue 29): typed #tags are tags, a shared link survives sign-in, and the
// other rough edges a first visit met, each checked the way the user met it.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { expectPath, expectToastShown, expectUrl, open, PASSWORD, signedInPage, signUp, skipSplash, THEME_RULES, THEMES, unique, waitForApp } from "./helpers";
import { card, postEcho } from "./echo-helpers";
import { uniqueTag } from "./scroll-helpers";

/**
 * axe (WCAG A/AA, as e2e/axe.spec.ts) on the screen as it stands, light and dark, 1366 and 390
 * wide: whole in the first theme, the rules a theme can change (THEME_RULES) in the second.
 */
async function expectAxeClean(page: Page) {
  // four axe runs take 10-15 s on a loaded 2-core machine: time of their own, on top of the test's
  test.setTimeout(test.info().timeout + 30_000);
  for (const theme of THEMES) {
    // the theme as Settings applies it: the document's data-theme (colours follow it at once)
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const builder = axe(page);
      const { violations } = await (theme === THEMES[0] ? builder.withTags(WCAG_TAGS) : builder.withRules(THEME_RULES)).analyze();
      const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect.soft(serious, `${theme} @${width}`).toEqual([]);
    }
  }
}

test.describe("typed #tags are the echo's tags", () => {
  test("a #tag typed in the text shows as a tag while writing, and the posted echo is on its tag page", async ({ page }) => {
    await signedInPage(page, "ht");
    const tag = unique("intro").toLowerCase();
    await open(page, "/new");
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill(`my second try, #${tag}`);
    await expect(page.getByText("Tags (1/5)")).toBeVisible();
    await expect(page.locator(".tag-chip.from-text")).toHaveText(`#${tag} (typed in the text)`);
    const posted = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/echo/post");
    await page.getByRole("button", { name: "Post", exact: true }).click();
    const { echo } = (await (await posted).json()) as { echo: { _id: string; tags: { name: string }[] } };
    expect(echo.tags.map((t) => t.name)).toEqual([tag]);
    await expectUrl(page, "/");
    await open(page, `/tag/${tag}`);
    await expect(card(page, echo._id)).toBeVisible();
    await expect(page.getByText(`No one has posted with #${tag} yet.`)).toHaveCount(0);
  });

  test("past 5 tags, counting the typed ones, Post is disabled and says why", async ({ page }) => {
    await signedInPage(page, "hm");
    await open(page, "/new");
    const tags = page.getByRole("textbox", { name: /^Tags/ });
    await tags.fill("one two three four ");
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill("too many: #five #six");
    const reason = page.getByRole("alert").filter({ hasText: "at most 5 tags" });
    await expect(reason).toHaveText("Too many tags: at most 5 tags per echo, #tags in the text included (this one has 6). Remove 1 to post.");
    const post = page.getByRole("button", { name: "Post", exact: true });
    await expect(post).toBeDisabled();
    await expect(post).toHaveAccessibleDescription(/this one has 6/);
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill("just right: #five");
    await expect(reason).toHaveCount(0);
    await expect(post).toBeEnabled();
    await expect(page.getByText("Tags (5/5)")).toBeVisible();
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill("too many: #five #six");
    await expectAxeClean(page);
  });
});

test.describe("a shared link survives sign-in", () => {
  async function fillAndSubmit(page: Page, userName: string, submit: "Log in" | "Sign up") {
    await page.getByLabel("Username").fill(userName);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: submit, exact: true }).click();
  }

  test("a guest sent to /login from /echo/:id lands back on the echo after logging in", async ({ page, request }) => {
    const author = await signUp(request, "sl");
    const echo = await postEcho(request, `Shared with a friend ${unique()}`);
    await skipSplash(page.context());
    await page.goto(`/echo/${echo._id}`);
    await expectUrl(page, "/login", `?next=${encodeURIComponent(`/echo/${echo._id}`)}`);
    await waitForApp(page);
    await fillAndSubmit(page, author.userName, "Log in");
    await expectUrl(page, `/echo/${echo._id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Echo by ${author.userName}`);
    await expectToastShown(page, "Logged in successfully");
  });

  test("a new visitor who signs up instead (through the Sign up link) lands on the echo too", async ({ page, request }) => {
    const author = await signUp(request, "sa");
    const echo = await postEcho(request, `Come and see ${unique()}`);
    await skipSplash(page.context());
    await page.goto(`/echo/${echo._id}`);
    await waitForApp(page);
    await page.getByRole("link", { name: "Sign up" }).click();
    await expectUrl(page, "/signup", `?next=${encodeURIComponent(`/echo/${echo._id}`)}`);
    await waitForApp(page);
    await fillAndSubmit(page, unique("sn"), "Sign up");
    await expectUrl(page, `/echo/${echo._id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Echo by ${author.userName}`);
  });

  for (const next of ["//evil.com", "https://evil.com", "/\\evil.com"]) {
    test(`a next of ${JSON.stringify(next)} does not leave the site: home after logging in`, async ({ page, request, baseURL }) => {
      const user = await signUp(request, "or");
      await skipSplash(page.context());
      await open(page, `/login?next=${encodeURIComponent(next)}`);
      await fillAndSubmit(page, user.userName, "Log in");
      await expectToastShown(page, "Logged in successfully");
      await expectPath(page, "/");
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      // already signed in, the same link sends to home as well
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await expectPath(page, "/");
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    });
  }
});

test.describe("searching a person", () => {
  test("a name with no echos shows the people it matches on Echos, with bio and Follow", async ({ page, request }) => {
    const alice = await signUp(request, "alice");
    const bio = `Tide pools and lighthouses ${unique("b")}`;
    expect((await request.patch("/api/profile/me", { data: { bio } })).ok()).toBe(true);
    await signedInPage(page, "sp");
    await open(page, `/search?q=${alice.userName}`);
    const tabs = page.getByRole("navigation", { name: "Search results" });
    await expect(tabs.getByRole("link", { name: "Echos" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("Nothing found")).toHaveCount(0);
    await expect(page.getByTestId("no-echos-people")).toHaveText(`No echos match “${alice.userName}”. A person whose name matches:`);
    const people = page.getByRole("region", { name: "People" });
    await expect(people.getByRole("link")).toHaveText([`@${alice.userName}`]);
    await expect(people.getByText(bio)).toBeVisible();
    await people.getByRole("button", { name: `Follow @${alice.userName}` }).click();
    await expectToastShown(page, `Following @${alice.userName}`);
    await expect(people.getByRole("button", { name: `Unfollow @${alice.userName}` })).toBeVisible();
    await expectAxeClean(page);
    // the People tab lists them the same way, the follow kept
    await tabs.getByRole("link", { name: "People" }).click();
    await expect(page.getByRole("region", { name: "People" }).getByRole("button", { name: `Unfollow @${alice.userName}` })).toBeVisible();
    await expect(page.getByRole("region", { name: "People" }).getByText(bio)).toBeVisible();
  });

  test("a search with echos shows the echos; one matching nothing at all still says Nothing found", async ({ page }) => {
    const me = await signedInPage(page, "sq");
    const word = unique("w");
    await postEcho(page.request, `the word ${word}`);
    await open(page, `/search?q=${word}`);
    await expect(page.getByTestId("echo-card")).toHaveCount(1);
    await expect(page.getByRole("region", { name: "People" })).toHaveCount(0);
    await open(page, `/search?q=${unique("zz")}`);
    await expect(page.getByText("Nothing found")).toBeVisible();
    // oneself: listed, without a Follow button
    await open(page, `/search?q=${me.userName}&type=people`);
    await expect(page.getByRole("region", { name: "People" }).getByRole("link")).toHaveText([`@${me.userName}`]);
    await expect(page.getByRole("region", { name: "People" }).getByRole("button")).toHaveCount(0);
  });
});

test.describe("long text is not cut silently", () => {
  test("pasting 5,000 characters keeps them all; the counter says by how much; Post waits, saying why", async ({ page }) => {
    await signedInPage(page, "lt");
    await open(page, "/new");
    const box = page.getByRole("textbox", { name: "What's on your mind?" });
    const long = `${"A long thought. ".repeat(312)}end!!!!!`; // 5,000 characters
    expect(long.length).toBe(5000);
    await box.fill(long);
    await expect(box).toHaveValue(long);
    const counter = page.getByTestId("char-count");
    await expect(counter).toHaveText("4000 characters over the 1000-character limit: remove them to post");
    const post = page.getByRole("button", { name: "Post", exact: true });
    await expect(post).toBeDisabled();
    await expect(post).toHaveAccessibleDescription("4000 characters over the 1000-character limit: remove them to post");
    await expect(box).toHaveAttribute("aria-invalid", "true");
    await expectAxeClean(page);
    // near the limit: the warning colour still reads (axe), and Post is back
    await box.fill("y".repeat(1001));
    await expect(counter).toHaveText("1 character over the 1000-character limit: remove it to post");
    await box.fill("y".repeat(980));
    await expect(counter).toHaveText("20 characters remaining");
    await expect(post).toBeEnabled();
    await expect(box).not.toHaveAttribute("aria-invalid", "true");
    await expectAxeClean(page);
  });
});

test.describe("your own echos are part of Following", () => {
  test("after following someone, a new echo is on Home's Following list itself, and Home says which list it shows", async ({ page, request }) => {
    const friend = await signUp(request, "of");
    const theirs = await postEcho(request, `From a friend ${unique()}`);
    const me = await signedInPage(page, "om");
    expect((await page.request.post(`/api/profile/user/${friend._id}/follow`)).ok()).toBe(true);
    const before = await postEcho(page.request, `Mine, before ${unique()}`);
    await open(page, "/");
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Following");
    await expect(page.getByText("Your echos and those of the people you follow, newest first.")).toBeVisible();
    await expect(card(page, before._id)).toBeVisible();
    await expect(card(page, theirs._id)).toBeVisible();
    // posting from /new: the echo is in the list shown, not in a separate box beside it
    await open(page, "/new");
    const text = `My second try ${unique()}`;
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill(text);
    const posted = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/echo/post");
    await page.getByRole("button", { name: "Post", exact: true }).click();
    const { echo } = (await (await posted).json()) as { echo: { _id: string } };
    await expectUrl(page, "/");
    await expect(page.getByTestId("echo-card").first()).toHaveAttribute("data-echo-id", echo._id);
    await expect(page.getByTestId("posted-echo")).toHaveCount(0);
    await expect(card(page, echo._id).getByRole("link", { name: `@${me.userName}` }).first()).toBeVisible();
    await expectAxeClean(page);
  });

  test("All Echos says what it is too", async ({ page }) => {
    await signedInPage(page, "oa");
    await open(page, "/");
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("All Echos");
    await expect(page.getByText("Everyone's echos, newest first.")).toBeVisible();
  });
});

test.describe("Sign Out is in the navigation", () => {
  test("from Home on a phone: the sidebar's Sign Out confirms, signs out and lands on /login with the toast", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signedInPage(page, "so");
    await open(page, "/");
    await page.getByRole("button", { name: "Toggle sidebar" }).click();
    const dialogs: string[] = [];
    page.once("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.accept();
    });
    await page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Sign Out" }).click();
    await expectToastShown(page, "Logged out successfully");
    await expectPath(page, "/login");
    expect(dialogs).toEqual(["Are you sure you want to logout?"]);
    await page.goto("/");
    await expectPath(page, "/login");
  });

  test("on a wide screen it sits under Settings; on /settings the Session card comes before the account's dangerous actions", async ({ page }) => {
    await signedInPage(page, "sw");
    await open(page, "/settings");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await expect(sidebar.getByRole("button", { name: "Sign Out" })).toBeVisible();
    const headings = await page.locator("main h2").allTextContents();
    expect(headings.indexOf("Session")).toBeGreaterThan(-1);
    expect(headings.indexOf("Session")).toBeLessThan(headings.indexOf("Delete Account"));
    await expect(page.locator("main").getByRole("button", { name: "Sign Out" })).not.toHaveClass(/btn-danger/);
    await expectAxeClean(page);
  });
});

test.describe("the bell is live", () => {
  test("a like and a mention from someone else show on the bell without a navigation, and are announced", async ({ page, request }) => {
    await page.clock.install();
    const me = await signedInPage(page, "bl");
    const mine = await postEcho(page.request, `Like this ${unique()}`);
    await signUp(request, "bo");
    await open(page, "/");
    const bell = page.getByRole("link", { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName("Notifications");
    expect((await request.post(`/api/echo/like/${mine._id}`)).ok()).toBe(true);
    // the page's own check, 30 s later: no reload, no navigation
    await page.clock.runFor(31_000);
    await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
    await expect(bell.locator(".bell-badge")).toHaveText("1");
    await expect(page.getByRole("status").filter({ hasText: "Notifications, 1 unread" })).toHaveCount(1);
    // coming back to the tab checks at once
    await postEcho(request, `hello @${me.userName}`);
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
    await expectUrl(page, "/");
    await expectAxeClean(page);
  });
});

test.describe("screen readers hear what a card is and what changed", () => {
  test("each card's menu says whose echo it is; the like button's name carries the count and follows it", async ({ page, request }) => {
    const other = await signUp(request, "sr");
    const theirs = await postEcho(request, `Someone's echo ${unique()}`);
    const me = await signedInPage(page, "sm");
    const mine = await postEcho(page.request, `My echo ${unique()}`);
    await open(page, "/");
    await expect(card(page, theirs._id).locator(".echo-menu > button")).toHaveAccessibleName(`Echo menu, by @${other.userName}`);
    await expect(card(page, mine._id).locator(".echo-menu > button")).toHaveAccessibleName(`Echo menu, by @${me.userName}`);
    const like = card(page, theirs._id).locator(".echo-actions button[aria-pressed]").first();
    await expect(like).toHaveAccessibleName("Like, 0 likes");
    await like.click();
    await expect(like).toHaveAccessibleName("Unlike, 1 like");
    await expect(like).toHaveAttribute("aria-pressed", "true");
    // the menu it opens has the same name
    await card(page, theirs._id).locator(".echo-menu > button").click();
    await expect(card(page, theirs._id).getByRole("menu")).toHaveAccessibleName(`Echo menu, by @${other.userName}`);
  });
});

test.describe("the first error offline is not silent", () => {
  test("a like that fails after the connection dropped shows its error toast", async ({ page, context }) => {
    await signedInPage(page, "of");
    const echo = await postEcho(page.request, `Offline like ${unique()}`);
    await open(page, "/");
    // the toast library arrives once the page is idle (its chunk is react-hot-toast's "dist")
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByType("resource").some((e) => /\/dist-[\w-]+\.js$/.test(e.name))))
      .toBe(true);
    await context.setOffline(true);
    await card(page, echo._id).locator(".echo-actions button[aria-pressed]").first().click();
    await expect(page.getByRole("status").filter({ hasText: "Check your connection" })).toBeVisible();
    await context.setOffline(false);
  });
});

test.describe("creating a scroll shows it", () => {
  test("after Create, /scrolls says it is created, links to it, and its card shows the exclusions and the order", async ({ page }) => {
    await signedInPage(page, "cs");
    const [included, excluded] = [uniqueTag("in"), uniqueTag("ex")];
    await open(page, "/scroll/new");
    const name = `Calm reads ${included.slice(-6)}`;
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
    await page.locator("#include-tags").fill(included);
    await page.locator("#include-tags").press("Enter");
    await page.locator("#exclude-tags").fill(excluded);
    await page.locator("#exclude-tags").press("Enter");
    await page.getByRole("button", { name: "Create Scroll", exact: true }).click();
    await expectToastShown(page, "Scroll created successfully");
    await expectUrl(page, "/scrolls");
    const notice = page.getByTestId("created-notice");
    await expect(notice).toHaveText(`Your feed “${name}” is created. Open it`);
    const created = page.locator(".scroll-card.just-created");
    await expect(created.locator(".scroll-card-name")).toHaveText(name);
    await expect(created.locator(".badge-new")).toHaveText("New");
    await expect(created.locator(".tag-chip.excluded")).toHaveText(`not #${excluded}`);
    await expect(created.getByTestId("scroll-card-rule")).toHaveText("Newest first");
    await expectAxeClean(page);
    await notice.getByRole("link", { name: "Open it" }).click();
    await expect(page).toHaveURL((url) => url.pathname.startsWith("/scroll/") && url.pathname !== "/scroll/new");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  });
});

test.describe("saving to a curation", () => {
  test("with one curation it comes chosen: menu, Save to Scroll, Add", async ({ page }) => {
    await signedInPage(page, "sv");
    const shelf = await (await page.request.post("/api/scroll/create", { data: { name: `Shelf ${unique().slice(-6)}`, type: "curation" } })).json();
    const echo = await postEcho(page.request, `Keep this ${unique()}`);
    await open(page, `/echo/${echo._id}`);
    await card(page, echo._id).locator(".echo-menu > button").click();
    await page.getByRole("menuitem", { name: "Save to Scroll" }).click();
    const dialog = page.getByRole("dialog", { name: "Save to Scroll" });
    await expect(dialog.getByRole("radio", { name: new RegExp(`^${shelf.scroll.name} `) })).toBeChecked();
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await expectToastShown(page, "Echo added to scroll");
    const listed = await (await page.request.get(`/api/scroll/${shelf.scroll._id}/echos`)).json();
    expect(listed.echos.map((e: { _id: string }) => e._id)).toEqual([echo._id]);
  });

  test("with none, the dialog makes one and saves the echo into it", async ({ page }) => {
    await signedInPage(page, "sc");
    const echo = await postEcho(page.request, `First keeper ${unique()}`);
    await open(page, `/echo/${echo._id}`);
    await card(page, echo._id).locator(".echo-menu > button").click();
    await page.getByRole("menuitem", { name: "Save to Scroll" }).click();
    const dialog = page.getByRole("dialog", { name: "Save to Scroll" });
    const name = `Keepers ${unique().slice(-6)}`;
    await dialog.getByRole("textbox", { name: "Or save it in a new curation" }).fill(name);
    await expectAxeClean(page);
    await dialog.getByRole("button", { name: "Create and add" }).click();
    await expectToastShown(page, "Echo added to scroll");
    await expect(dialog).toBeHidden();
    const { scrolls } = await (await page.request.get("/api/scroll/all")).json();
    const made = scrolls.find((s: { name: string }) => s.name === name);
    expect(made).toMatchObject({ type: "curation" });
    const listed = await (await page.request.get(`/api/scroll/${made._id}/echos`)).json();
    expect(listed.echos.map((e: { _id: string }) => e._id)).toEqual([echo._id]);
  });
});

test.describe("forks are one's own", () => {
  test("a fork opens private, and a second fork of the same feed is named apart", async ({ page, request }) => {
    await signUp(request, "fw");
    const tag = uniqueTag("fk");
    const original = (await (await request.post("/api/scroll/create", { data: { name: "Owner feed", type: "feed", feedConfig: { includedTags: [tag] } } })).json()).scroll;
    await signedInPage(page, "fk");
    await open(page, `/scroll/${original._id}`);
    await page.getByRole("button", { name: "Fork" }).click();
    await expect(page).toHaveURL(/\/scroll\/[0-9a-z]{26}\/edit$/);
    await expect(page.getByLabel("Name")).toHaveValue("Owner feed (fork)");
    await expect(page.getByRole("switch", { name: "Private" })).toBeChecked();
    await open(page, `/scroll/${original._id}`);
    await page.getByRole("button", { name: "Fork" }).click();
    await expect(page).toHaveURL(/\/scroll\/[0-9a-z]{26}\/edit$/);
    await expect(page.getByLabel("Name")).toHaveValue("Owner feed (fork 2)");
  });
});

test.describe("small things a first hour meets", () => {
  test("changing the password to the same one is refused under the field, and nothing is sent", async ({ page }) => {
    await signedInPage(page, "pw");
    await open(page, "/settings");
    const form = page.locator("section", { has: page.getByRole("heading", { name: "Change Password" }) });
    const posts: string[] = [];
    page.on("request", (req) => void (req.method() === "POST" && posts.push(new URL(req.url()).pathname)));
    await form.getByLabel("Current password").fill(PASSWORD);
    await form.getByLabel("New password").fill(PASSWORD);
    await form.getByRole("button", { name: "Change Password" }).click();
    await expect(form.getByLabel("New password")).toHaveAccessibleDescription(/Password must be different from the current password/);
    expect(posts).toEqual([]);
  });
  test("a wrong password is said in the form, and focus stays on the password to type it again", async ({ page, request }) => {
    const user = await signUp(request, "wp");
    await skipSplash(page.context());
    await open(page, "/login");
    await page.getByLabel("Username").fill(user.userName);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid username or password");
    await expect(page.getByLabel("Password")).toBeFocused();
    await expectAxeClean(page);
  });

  test("an echo's page says its time zone", async ({ page }) => {
    await signedInPage(page, "tz");
    const echo = await postEcho(page.request, `When was this ${unique()}`);
    await open(page, `/echo/${echo._id}`);
    await expect(card(page, echo._id).locator("time")).toHaveText(/ UTC$/);
  });
});
