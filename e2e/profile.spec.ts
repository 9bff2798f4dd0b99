// Own profile, other users' profiles (follow), and the top bar's search. Every test makes its own
// users through the API; the server's data is shared with the other specs.
import { expect, test } from "@playwright/test";
import { card, cardIds, postEcho, type Echo } from "./echo-helpers";
import { apiUser, expectPath, expectToastShown, open, recordPosts, signedInPage, unique } from "./helpers";
import { profileCount, rank, scrollCardNames, stem } from "./community-helpers";
import { createScroll } from "./scroll-helpers";

test.describe("own profile", () => {
  test("username, 'No bio available', counts, Echos / Scrolls tabs with 'My …' headings, New Echo → /new, New Scroll → /scroll/new", async ({ page, playwright, baseURL }) => {
    const me = await signedInPage(page, "pr");
    await postEcho(page.request, `First of mine ${unique("t")}`);
    const newest = await postEcho(page.request, `Second of mine ${unique("t")}`);
    const open1 = await createScroll(page.request, { name: `Mine public ${unique("s")}`.slice(0, 50), type: "feed" });
    const secret = await createScroll(page.request, { name: `Mine private ${unique("s")}`.slice(0, 50), type: "curation", isPrivate: true });
    const fan = await apiUser(playwright, baseURL, "fan");
    expect((await fan.request.post(`/api/profile/user/${me._id}/follow`)).ok()).toBe(true);
    await fan.request.dispose();

    await open(page, "/profile");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`@${me.userName}`);
    await expect(page.locator(".profile-bio")).toHaveText("No bio available");
    await expect(profileCount(page, "Echos")).toHaveText("2");
    await expect(profileCount(page, "Scrolls")).toHaveText("2");
    await expect(profileCount(page, "Followers")).toHaveText("1");
    await expect(profileCount(page, "Following")).toHaveText("0");
    await expect(page.getByRole("button", { name: "Edit Profile" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Follow", exact: true })).toHaveCount(0);

    const echosTab = page.getByRole("tab", { name: "Echos" });
    const scrollsTab = page.getByRole("tab", { name: "Scrolls" });
    await expect(echosTab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { level: 2, name: "My Echos" })).toBeVisible();
    expect((await cardIds(page))[0]).toBe(newest._id);
    await expect(page.getByTestId("echo-card")).toHaveCount(2);
    await expect(page.getByRole("link", { name: "New Echo" })).toHaveAttribute("href", "/new");

    await scrollsTab.click();
    await expect(scrollsTab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { level: 2, name: "My Scrolls" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "My Echos" })).toHaveCount(0);
    // one's own private scrolls show on one's own profile
    expect((await scrollCardNames(page.getByRole("main"))).sort()).toEqual([open1.name, secret.name].sort());
    await expect(page.getByRole("main").getByRole("link", { name: open1.name, exact: true })).toHaveAttribute("href", `/scroll/${open1._id}`);
    const newScroll = page.getByRole("link", { name: "New Scroll" });
    await expect(newScroll).toHaveAttribute("href", "/scroll/new");
    await newScroll.click();
    await expect(page).toHaveURL((u) => u.pathname === "/scroll/new");

    await open(page, "/profile");
    await page.getByRole("link", { name: "New Echo" }).click();
    await expect(page).toHaveURL((u) => u.pathname === "/new");
  });

  test("a new user's empty tabs offer Create Echo and Create Scroll", async ({ page }) => {
    await signedInPage(page, "pe");
    await open(page, "/profile");
    for (const label of ["Echos", "Scrolls", "Followers", "Following"]) await expect(profileCount(page, label)).toHaveText("0");
    await expect(page.getByText("No echos yet", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Create Echo" })).toHaveAttribute("href", "/new");
    await page.getByRole("tab", { name: "Scrolls" }).click();
    await expect(page.getByText("No scrolls yet", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Create Scroll" })).toHaveAttribute("href", "/scroll/new");
  });

  test("Edit Profile: Bio and Email → toast 'Profile updated', the new bio shows; the email shows on /settings", async ({ page }) => {
    await signedInPage(page, "ed");
    await open(page, "/profile");
    const posts = recordPosts(page);
    await page.getByRole("button", { name: "Edit Profile" }).click();
    const form = page.getByRole("form", { name: "Edit Profile" });
    await expect(form).toBeVisible();
    const bio = `Writes about tide pools ${unique("b")}`;
    const email = `${unique("m")}@example.com`;
    await form.getByRole("textbox", { name: "Bio" }).fill(bio);
    await form.getByRole("textbox", { name: /^Email/ }).fill(email);
    await form.getByRole("button", { name: "Save" }).click();
    await expectToastShown(page, "Profile updated");
    await expect(form).toHaveCount(0);
    await expect(page.locator(".profile-bio")).toHaveText(bio);
    // issue 30: saved through the profile page's action (a fetcher), not a PATCH to /api
    expect(posts).toEqual(["/profile.data"]);
    // it was stored, not just shown
    await open(page, "/profile");
    await expect(page.locator(".profile-bio")).toHaveText(bio);

    await open(page, "/settings");
    await expect(page.locator("dt", { hasText: /^Email$/ }).locator("+ dd")).toHaveText(email);
  });

  test("Echos tab: Load more shows with more than 10 echos and loads the rest", async ({ page }) => {
    await signedInPage(page, "lm");
    const posted: Echo[] = [];
    for (let i = 0; i < 12; i++) posted.push(await postEcho(page.request, `Numbered echo ${i} ${unique("t")}`));
    const newestFirst = posted.map((e) => e._id).reverse();
    await open(page, "/profile");
    await expect(page.getByTestId("echo-card")).toHaveCount(10);
    expect(await cardIds(page)).toEqual(newestFirst.slice(0, 10));
    const more = page.getByRole("button", { name: "Load more" });
    await more.click();
    await expect(page.getByTestId("echo-card")).toHaveCount(12);
    expect(await cardIds(page)).toEqual(newestFirst);
    await expect(more).toHaveCount(0);
  });
});

test("Back to a profile restores its tab, the pages Load more brought and the scroll position", async ({ page }) => {
  test.setTimeout(90_000);
  await signedInPage(page, "pb");
  const posted: Echo[] = [];
  for (let i = 0; i < 25; i++) posted.push(await postEcho(page.request, `Profile echo ${i} ${unique("t")}`));
  const newestFirst = posted.map((e) => e._id).reverse();
  await open(page, "/profile");
  const more = page.getByRole("button", { name: "Load more" });
  await more.click();
  await expect(page.getByTestId("echo-card")).toHaveCount(20);
  await more.click();
  await expect(page.getByTestId("echo-card")).toHaveCount(25);
  const target = card(page, newestFirst[22]!); // brought by the second Load more
  await target.scrollIntoViewIfNeeded();
  const scrolledTo = await page.evaluate(() => window.scrollY);
  expect(scrolledTo).toBeGreaterThan(0);
  await target.locator(".echo-content").click();
  await expectPath(page, `/echo/${newestFirst[22]}`);

  await page.goBack();
  await expectPath(page, "/profile");
  await expect(page.getByTestId("echo-card")).toHaveCount(25);
  await expect(card(page, newestFirst[22]!)).toBeInViewport();
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo)).toBeLessThan(50);

  // the Scrolls tab is remembered too
  await page.getByRole("tab", { name: "Scrolls" }).click();
  await page.getByRole("link", { name: "Feed", exact: true }).click();
  await expectPath(page, "/");
  await page.goBack();
  await expectPath(page, "/profile");
  await expect(page.getByRole("tab", { name: "Scrolls" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { level: 2, name: "My Scrolls" })).toBeVisible();
});

test.describe("another user's profile", () => {
  test("'{userName}'s Echos'; Follow → Unfollow and Followers +1; the Followers list shows me; Unfollow reverses it", async ({ page, playwright, baseURL }) => {
    const me = await signedInPage(page, "fo");
    const other = await apiUser(playwright, baseURL, "ot");
    const theirs = await postEcho(other.request, `Their echo ${unique("t")}`);
    await other.request.dispose();

    await open(page, `/user/${other.user._id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`@${other.user.userName}`);
    await expect(page.getByRole("heading", { level: 2, name: `${other.user.userName}'s Echos` })).toBeVisible();
    expect(await cardIds(page)).toEqual([theirs._id]);
    await expect(page.getByRole("button", { name: "Edit Profile" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "New Echo" })).toHaveCount(0);
    await expect(profileCount(page, "Followers")).toHaveText("0");

    await page.getByRole("button", { name: "Follow", exact: true }).click();
    await expect(page.getByRole("button", { name: "Unfollow", exact: true })).toBeVisible();
    await expectToastShown(page, `Following @${other.user.userName}`);
    await expect(profileCount(page, "Followers")).toHaveText("1");

    await page.getByRole("button", { name: "Followers", exact: true }).click();
    const list = page.getByRole("region", { name: "Followers" });
    await expect(list.getByRole("link")).toHaveText([`@${me.userName}`]);
    await expect(list.getByRole("link")).toHaveAttribute("href", `/user/${me._id}`);
    await list.getByRole("button", { name: "Close" }).click();
    await expect(list).toHaveCount(0);

    // it sticks after a reload; my own Following count went up too
    await open(page, `/user/${other.user._id}`);
    await expect(page.getByRole("button", { name: "Unfollow", exact: true })).toBeVisible();
    await expect(profileCount(page, "Followers")).toHaveText("1");

    await page.getByRole("button", { name: "Unfollow", exact: true }).click();
    await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
    await expectToastShown(page, `Unfollowed @${other.user.userName}`);
    await expect(profileCount(page, "Followers")).toHaveText("0");
    await page.getByRole("button", { name: "Followers", exact: true }).click();
    await expect(page.getByRole("region", { name: "Followers" }).getByText("No followers yet", { exact: true })).toBeVisible();
  });

  test("my Following list after following someone; a user with no echos shows the empty state and hides private scrolls", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "fe");
    const other = await apiUser(playwright, baseURL, "em");
    const hidden = await createScroll(other.request, { name: `Their private ${unique("s")}`.slice(0, 50), type: "feed", isPrivate: true });
    const shown = await createScroll(other.request, { name: `Their public ${unique("s")}`.slice(0, 50), type: "curation" });
    await other.request.dispose();
    expect((await page.request.post(`/api/profile/user/${other.user._id}/follow`)).ok()).toBe(true);

    await open(page, `/user/${other.user._id}`);
    await expect(page.getByRole("heading", { level: 2, name: `${other.user.userName}'s Echos` })).toBeVisible();
    await expect(page.getByText("No echos yet", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Create Echo" })).toHaveCount(0);
    await expect(profileCount(page, "Scrolls")).toHaveText("1");
    await page.getByRole("tab", { name: "Scrolls" }).click();
    await expect(page.getByRole("heading", { level: 2, name: `${other.user.userName}'s Scrolls` })).toBeVisible();
    expect(await scrollCardNames(page.getByRole("main"))).toEqual([shown.name]);
    await expect(page.getByRole("main").getByText(hidden.name)).toHaveCount(0);

    await open(page, "/profile");
    await expect(profileCount(page, "Following")).toHaveText("1");
    await page.getByRole("button", { name: "Following", exact: true }).click();
    await expect(page.getByRole("region", { name: "Following" }).getByRole("link")).toHaveText([`@${other.user.userName}`]);
  });
});

test.describe("search", () => {
  test("top bar 'Search' → /search: tabs find a user, a tag and a public scroll; nonsense → each tab's empty state", async ({ page, playwright, baseURL }) => {
    await signedInPage(page, "se");
    const other = await apiUser(playwright, baseURL, "sf");
    const tag = stem("sg", 24);
    await postEcho(other.request, `Tagged for search ${tag}`, [tag]);
    const scroll = await createScroll(other.request, { name: `Searchable ${stem("sc", 20)}`, type: "feed", description: "Found by name" });
    await other.request.dispose();
    await rank(page.request);

    await open(page, "/");
    await page.getByRole("link", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL((u) => u.pathname === "/search");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search");
    const box = page.getByRole("searchbox", { name: "Search" });
    const tabs = page.getByRole("navigation", { name: "Search results" });
    // no tabs before a search
    await expect(tabs).toHaveCount(0);

    // a user, by a case-changed part of the name: the People tab (Echos is the first, current one)
    await box.fill(other.user.userName.toUpperCase());
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL((u) => u.searchParams.get("q") === other.user.userName.toUpperCase());
    await expect(tabs.getByRole("link")).toHaveText(["Echos", "People", "Scrolls", "Tags"]);
    await expect(tabs.getByRole("link", { name: "Echos" })).toHaveAttribute("aria-current", "page");
    // keyboard: Tab from the search box reaches the People tab, Enter opens it
    await box.focus();
    const peopleTab = tabs.getByRole("link", { name: "People" });
    for (let i = 0; i < 6 && !(await peopleTab.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(peopleTab).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL((u) => u.searchParams.get("type") === "people");
    await expect(peopleTab).toHaveAttribute("aria-current", "page");
    const users = page.locator("section.card").filter({ has: page.getByRole("heading", { name: "People" }) });
    await expect(users.getByRole("link")).toHaveText([`@${other.user.userName}`]);
    // a new search from a tab stays on it; "@name" finds the person too
    await box.fill(`@${other.user.userName}`);
    await box.press("Enter");
    await expect(page).toHaveURL((u) => u.searchParams.get("q") === `@${other.user.userName}` && u.searchParams.get("type") === "people");
    await expect(users.getByRole("link")).toHaveText([`@${other.user.userName}`]);
    await users.getByRole("link").click();
    await expect(page).toHaveURL((u) => u.pathname === `/user/${other.user._id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`@${other.user.userName}`);

    // a tag, with or without '#'
    await open(page, "/search");
    await page.getByRole("searchbox", { name: "Search" }).fill(`#${tag}`);
    await page.getByRole("searchbox", { name: "Search" }).press("Enter");
    await tabs.getByRole("link", { name: "Tags" }).click();
    const tags = page.locator("section.card").filter({ has: page.getByRole("heading", { name: "Tags" }) });
    await expect(tags.getByRole("link")).toHaveText([`#${tag}`]);
    await expect(tags.getByRole("link")).toHaveAttribute("href", `/tag/${tag}`);

    // a public scroll by its name
    await open(page, `/search?q=${encodeURIComponent(scroll.name)}&type=scrolls`);
    const scrolls = page.locator("section.card").filter({ has: page.getByRole("heading", { name: "Scrolls" }) });
    expect(await scrollCardNames(scrolls)).toEqual([scroll.name]);
    await expect(scrolls.getByRole("link", { name: scroll.name })).toHaveAttribute("href", `/scroll/${scroll._id}`);
    await expect(page.getByText("No scrolls found", { exact: true })).toHaveCount(0);

    // nonsense: each tab says so in its own words (spec §6 for scrolls and tags)
    const nonsense = `qq${unique("x")}`;
    for (const [type, title, detail] of [
      ["", "Nothing found", "Try a different search term"],
      ["people", "No users found", "Try a different search term"],
      ["scrolls", "No scrolls found", "Try adjusting your search terms"],
      ["tags", "No tags found", "Try a different search term"],
    ]) {
      await open(page, `/search?q=${nonsense}${type ? `&type=${type}` : ""}`);
      await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(nonsense);
      await expect(page.getByText(title!, { exact: true })).toBeVisible();
      await expect(page.getByText(detail!, { exact: true })).toBeVisible();
      await expect(page.locator("section.card")).toHaveCount(0);
    }
  });
});
