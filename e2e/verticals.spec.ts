// The micro-frontend client in a browser (docs/decisions/011): one shell in every vertical,
// client-side navigation inside a vertical, a document navigation (fetched ahead, shell held
// still, no theme flash, scroll restored on back) across verticals.
import { expect, test, type Page } from "@playwright/test";
import { expectPath, expectToastShown, open, PASSWORD, signedInPage, unique } from "./helpers";
import { card, postEcho } from "./echo-helpers";
import { TabBrowser } from "./tab-browser";

/** A page of each vertical (modules/verticals). */
const PAGES = { echos: "/", scrolls: "/scrolls", community: "/community", people: "/profile", account: "/settings" };

/** Marks this document: a client-side navigation keeps the mark, a document navigation loses it. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { docMark: number }).docMark = Math.random()));
const documentMark = (page: Page) => page.evaluate(() => (window as unknown as { docMark?: number }).docMark ?? null);
const sidebarLink = (page: Page, name: string) => page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name, exact: true });

/** The shell's markup contract: landmarks, ids and the sidebar's links, as one comparable value. */
const shellContract = (page: Page) =>
  page.evaluate(() => ({
    skipLink: document.querySelector("a.skip-link")?.getAttribute("href"),
    splash: Boolean(document.getElementById("splash")),
    topbar: Boolean(document.querySelector("header.topbar")),
    sidebar: document.querySelector("aside#sidebar")?.getAttribute("aria-label"),
    main: document.querySelector("main")?.id,
    rightPanel: document.querySelector("aside.right-panel")?.getAttribute("aria-label"),
    links: [...document.querySelectorAll("#sidebar a")].map((a) => `${a.textContent} ${a.getAttribute("href")}`),
    viewTransitionNames: ["header.topbar", "#sidebar", "aside.right-panel"].map((s) => getComputedStyle(document.querySelector(s)!).viewTransitionName),
  }));

test("every vertical renders the same shell: landmarks, ids, sidebar links, view-transition names", async ({ page }) => {
  await signedInPage(page, "vs");
  const contracts = [];
  for (const [vertical, path] of Object.entries(PAGES)) {
    await open(page, path);
    // each page comes from its own vertical's build
    const scripts = await page.locator('link[rel="modulepreload"], script[src]').evaluateAll((ls) =>
      ls.map((l) => new URL((l as HTMLLinkElement).href || (l as HTMLScriptElement).src).pathname),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((s) => s.startsWith(`/_v/${vertical}/`)), `${vertical}: ${scripts.join(" ")}`).toBe(true);
    contracts.push(await shellContract(page));
  }
  expect(contracts[0]!.viewTransitionNames).toEqual(["topbar", "sidebar", "right-panel"]);
  for (const contract of contracts.slice(1)) expect(contract).toEqual(contracts[0]);
});

test("inside a vertical a link is a client-side navigation; into another it is a document navigation, prefetched ahead", async ({ page }) => {
  await signedInPage(page, "vn");
  await open(page, "/scrolls");
  await markDocument(page);
  await sidebarLink(page, "My Feeds").click();
  await expectPath(page, "/scrolls/feeds");
  await expect(page.getByRole("heading", { name: "My Feeds", level: 1 })).toBeVisible();
  expect(await documentMark(page)).not.toBeNull();

  // the speculation rules name the other verticals' pages, not this one's
  const rules = JSON.parse((await page.locator('script[type="speculationrules"]').first().textContent()) ?? "{}");
  const hrefs: string[] = rules.prefetch[0].where.and[0].href_matches;
  expect(hrefs).toEqual(expect.arrayContaining(["/", "/community", "/settings"]));
  expect(hrefs.some((h) => h.startsWith("/scroll"))).toBe(false);

  // resting on a link into another vertical fetches its document ahead (moderate eagerness): the
  // navigation is then served from that prefetch
  await sidebarLink(page, "Explore").hover();
  await page.waitForTimeout(1000);
  await sidebarLink(page, "Explore").click();
  await expectPath(page, "/community");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  const delivery = await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { deliveryType?: string }).deliveryType);
  expect(delivery).toBe("navigational-prefetch");
  expect(await documentMark(page)).toBeNull();
});

/**
 * A signed-in tab of our own Chromium (e2e/tab-browser.ts: Chromium prerenders nothing while
 * Playwright is attached to the page), on `path`, hydrated.
 */
async function prerenderingTab(baseURL: string | undefined, path: string): Promise<TabBrowser> {
  const browser = await TabBrowser.launch();
  try {
    await browser.goto(new URL("/api/health", baseURL).href);
    await browser.evaluate(() => sessionStorage.setItem("echo.splashed", "1"));
    const signup = { userName: unique("vp"), password: PASSWORD };
    const status = await browser.evaluate(
      (body) => fetch("/api/auth/signup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.status),
      signup,
    );
    expect(status).toBe(201);
    await browser.goto(new URL(path, baseURL).href);
    await browser.waitFor(() => Object.keys(document.querySelector("main") ?? {}).some((k) => k.startsWith("__reactProps$")));
    return browser;
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** What the shown document says of itself once it is `path` with its h1: prerendered (activationStart > 0), the mark. */
const shownDocument = (browser: TabBrowser, path: string) =>
  browser.waitFor(
    (p) =>
      (location.pathname === p &&
        Boolean(document.querySelector("main h1")) && {
        activationStart: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming & { activationStart: number }).activationStart,
        mark: (window as unknown as { docMark?: number }).docMark ?? null,
      }) ||
      null,
    path,
  ).then((shown) => shown!);

test("resting on a sidebar link into another vertical prerenders its page: the click shows that page at once (activated, not loaded)", async ({ baseURL }) => {
  // Feed (echos) → Scrolls (scrolls): `/scrolls` is the bare path of the table's `/scrolls/*`
  const browser = await prerenderingTab(baseURL, "/");
  try {
    await browser.evaluate(() => ((window as unknown as { docMark: number }).docMark = 1));
    const link = '#sidebar a[href="/scrolls"]';
    await browser.hover(link);
    // Chromium's own verdict (CDP Preload domain): Ready, or a Failure with its reason
    await browser.waitForPrerender("/scrolls", "Ready");
    await browser.click(link);
    const shown = await shownDocument(browser, "/scrolls");
    expect(shown.mark).toBeNull(); // another document…
    expect(shown.activationStart).toBeGreaterThan(0); // …rendered before the click
    await browser.waitForPrerender("/scrolls", "Success");
    expect(await browser.evaluate(() => document.querySelector("main h1")?.textContent)).toBe("Scrolls");
  } finally {
    await browser.close();
  }
});

test("a page prerendered a while before it is shown reads its data again: an echo posted meanwhile is on it", async ({ baseURL }) => {
  const browser = await prerenderingTab(baseURL, "/scrolls");
  try {
    const link = '#sidebar a[href="/"]';
    await browser.hover(link);
    await browser.waitForPrerender("/", "Ready");
    // the prerendered feed has no echo yet; one is posted from this page, and the click comes later
    const text = `posted after the prerender ${unique()}`;
    const status = await browser.evaluate(
      (content) => fetch("/api/echo/post", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ content, tags: [] }) }).then((r) => r.status),
      text,
    );
    expect(status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await browser.click(link);
    expect((await shownDocument(browser, "/")).activationStart).toBeGreaterThan(0);
    await browser.waitFor((t) => document.querySelector("main")?.textContent?.includes(t), text);
  } finally {
    await browser.close();
  }
});

test("an echo card's plain links navigate like <Link>s: a tag client-side, the author across verticals, a modified click left to the browser", async ({ page }) => {
  const me = await signedInPage(page, "vc");
  const tag = `cardlink${Date.now().toString(36)}`;
  const echo = await postEcho(page.request, `card links #${tag}`, [tag]);
  await open(page, "/");
  const echoCard = card(page, echo._id);
  await markDocument(page);

  // a tag chip (same vertical): client-side, the document stays
  await echoCard.getByRole("link", { name: `#${tag}` }).first().click();
  await expectPath(page, `/tag/${tag}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(tag);
  expect(await documentMark(page)).not.toBeNull();

  // back, then the #tag inside the text (EchoText) from the keyboard: still client-side
  await page.goBack();
  await expectPath(page, "/");
  await echoCard.locator(".echo-content a").focus();
  await page.keyboard.press("Enter");
  await expectPath(page, `/tag/${tag}`);
  expect(await documentMark(page)).not.toBeNull();

  // a ctrl-click is the browser's: a new tab, this page stays where it is
  await page.goBack();
  await expectPath(page, "/");
  const [popup] = await Promise.all([page.context().waitForEvent("page"), echoCard.getByRole("link", { name: "Open echo" }).click({ modifiers: ["Control"] })]);
  await popup.close();
  await expectPath(page, "/");

  // the author (people vertical): a document navigation
  await echoCard.getByRole("link", { name: `@${me.userName}` }).click();
  await expectPath(page, `/user/${me._id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await documentMark(page)).toBeNull();
});

// (a navigate() into another vertical with its toast: auth.spec's log in and sign up, /login → /)
test("signing out stays inside the account vertical with its toast; a guest on another vertical's page is sent to /login", async ({ page }) => {
  await signedInPage(page, "vr");
  await open(page, "/settings");
  page.once("dialog", (d) => d.accept());
  await page.locator("main").getByRole("button", { name: "Sign Out" }).click();
  // settings (account) → /login (account): client-side, with its toast
  await expectToastShown(page, "Logged out successfully");
  await expectPath(page, "/login");
  // a guest sent to a page of another vertical is redirected back to /login (a document redirect)
  await open(page, "/scrolls");
  await expectPath(page, "/login");
});

test("a document navigation keeps the theme from the first frame and back restores the scroll position", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await signedInPage(page, "vt");
  for (let i = 0; i < 8; i++) await postEcho(page.request, `vertical scroll test ${i}\n${"line\n".repeat(4)}`);
  await page.addInitScript(() => localStorage.setItem("theme", "dark"));
  await page.addInitScript(() => {
    const w = window as unknown as { themeAtFirstFrame?: string };
    requestAnimationFrame(() => (w.themeAtFirstFrame = document.documentElement.dataset.theme));
  });
  await open(page, "/");
  await expect(page.locator(".echo-card").nth(7)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);

  await sidebarLink(page, "Scrolls").click();
  await expectPath(page, "/scrolls");
  await expect(page.getByRole("heading", { name: "Scrolls", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { themeAtFirstFrame?: string }).themeAtFirstFrame)).toBe("dark");

  await page.goBack();
  await expectPath(page, "/");
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(400);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
});

/** React Router's own navigate(), as a <Link> calls it (run after this evaluate returns: it may unload the document). */
const navigateInApp = (page: Page, to: string) =>
  page.evaluate((path) => {
    const router = (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => unknown } }).__reactRouterDataRouter;
    setTimeout(() => void router.navigate(path));
  }, to);

test("version skew: a path this vertical's build has no page for is a document navigation, not its own 'not found'", async ({ page }) => {
  // A vertical built before another vertical gained a path still sends that path to the default
  // vertical (its table is older): its client must leave it to the server, which the router,
  // deployed with the newer table, hands to the owner (decision 011). A path no build has stands
  // in for it here: the echos build's client does not know it, so the browser loads it.
  await signedInPage(page, "vk");
  await open(page, "/");
  await markDocument(page);
  // a path of its own stays client-side
  await navigateInApp(page, "/new");
  await expectPath(page, "/new");
  expect(await documentMark(page)).not.toBeNull();
  await navigateInApp(page, "/echo/x/not-a-page-yet");
  await expectPath(page, "/echo/x/not-a-page-yet");
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  expect(await documentMark(page)).toBeNull();
});
