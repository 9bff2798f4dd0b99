// Screenshots of the scroll screens for a person to look at (not assertions): light and dark,
// 1280x800 and 390x800, into screenshots/ (git-ignored). Off unless SCROLL_SCREENSHOTS=1:
//   SCROLL_SCREENSHOTS=1 TEST_BASE_URL=… npx playwright test e2e/scroll-screenshots.spec.ts
import { expect, test } from "@playwright/test";
import { card, likeEcho, openMenu, postEcho, type Echo } from "./echo-helpers";
import { eachScreen, open, screenshotPath, signUp, unique } from "./helpers";
import { addEchoToScroll, createCuration, createFeed, followScroll, uniqueTag } from "./scroll-helpers";

test.skip(!process.env.SCROLL_SCREENSHOTS, "set SCROLL_SCREENSHOTS=1 to take screenshots");

test("scroll screens, light and dark, wide and narrow", async ({ browser, request, baseURL, playwright }) => {
  test.setTimeout(240_000);
  const tags = [uniqueTag("design"), uniqueTag("typo"), uniqueTag("css"), uniqueTag("a11y"), uniqueTag("spam")];

  // Another user whose feed the viewer follows and whose echos fill the feeds.
  const otherApi = await playwright.request.newContext({ baseURL });
  const other = await signUp(otherApi, "writer");
  const theirs = await createFeed(otherApi, "Frontend craft", { includedTags: [tags[0]!, tags[2]!] }, { description: "CSS, layout and the small details" });
  const echos: Echo[] = [];
  echos.push(await postEcho(otherApi, "Container queries finally make card components honest about their own width.", [tags[0]!, tags[2]!]));
  echos.push(await postEcho(otherApi, "Line length matters more than font size for long reads: aim for 60–75 characters.", [tags[0]!, tags[1]!]));
  echos.push(await postEcho(otherApi, "Focus rings are a feature. Style them, never remove them.", [tags[0]!, tags[3]!, tags[2]!]));

  const viewer = await signUp(request, "reader");
  await followScroll(request, theirs._id);
  const feed = await createFeed(
    request,
    "Design reading list",
    {
      tagMatchType: "any",
      includedTags: tags.slice(0, 4),
      excludedTags: [tags[4]!],
      authors: [other._id, viewer._id],
      sortBy: "mostLiked",
      sortTimeRange: "1month",
    },
    { description: "Typography, CSS and accessibility, most liked first" },
  );
  await createFeed(request, "Quiet feed", { includedTags: [uniqueTag("none")] });
  const curation = await createCuration(request, "Keepers", { description: "Echos worth reading twice" });
  await createCuration(request, "Later", { isPrivate: true });
  const mine = await postEcho(request, "Variable fonts cut our page weight by a third.", [tags[1]!, tags[0]!]);
  await likeEcho(request, echos[1]!._id);
  await likeEcho(otherApi, echos[1]!._id);
  await likeEcho(otherApi, mine._id);
  for (const echo of [echos[0]!, echos[2]!]) await addEchoToScroll(request, curation._id, echo._id);
  await otherApi.dispose();

  await eachScreen(browser, baseURL, { prefix: "scroll", userName: viewer.userName }, async (screen) => {
    const { page } = screen;
    // Viewport shots (a full-page shot would draw the sticky top bar and sidebar mid-page);
    // long screens get a second shot scrolled to the end.
    const shot = async (name: string, bottom = false) => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.evaluate(() => window.scrollTo(0, 0));
      await screen.shot(name);
      if (!bottom) return;
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: screenshotPath("scroll", `${name}-bottom`, screen) });
    };

    await open(page, "/");
    await shot("home");
    await open(page, "/scrolls");
    await shot("scrolls", true);
    await open(page, "/scroll/new");
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Weekend reading");
    await page.getByRole("textbox", { name: "Description (optional)" }).fill("Long reads about design and the web");
    await page.locator("#include-tags").pressSequentially("design css typography ");
    await page.getByRole("radio", { name: "All tags" }).click();
    await page.locator("#exclude-tags").pressSequentially("spam ");
    await page.locator("#author-search").fill(other.userName);
    await page.getByRole("option", { name: `@${other.userName}` }).click();
    await page.locator("#author-search").fill(unique("wr").slice(0, 4));
    await page.getByRole("combobox", { name: "Sort by" }).selectOption({ label: "Most Liked" });
    await page.getByRole("checkbox", { name: "Only echos from a date range" }).check();
    await page.getByLabel("From", { exact: true }).fill("2026-01-01");
    await shot("new", true);
    await open(page, `/scroll/${feed._id}`);
    await shot("feed", true);
    await open(page, `/scroll/${curation._id}`);
    await shot("curation", true);
    await openMenu(card(page, echos[0]!._id));
    await page.getByRole("menuitem", { name: "Save to Scroll" }).click();
    await expect(page.getByRole("dialog", { name: "Save to Scroll" })).toBeVisible();
    await page.getByRole("radio", { name: /^Keepers/ }).check();
    await shot("save-dialog");
    await open(page, "/scrolls/feeds");
    await shot("feeds");
  });
});
