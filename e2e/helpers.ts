// What every Playwright spec shares: unique names, users signed up through the public /api,
// skipping the splash, waiting for hydration, toasts, paths, and the screenshot loop. Every test
// makes its own users, so specs run in parallel against one server (whose data persists) without
// sharing state. Feature helpers (echo-, scroll-, community-helpers) build on this module.
import { mkdirSync } from "node:fs";
import { expect, type APIRequest, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";

export const PASSWORD = "pass1234";

let counter = 0;
/**
 * A name no other test (in this run or an earlier one on the same server) uses: letters and
 * digits only, at most 30 characters, so valid as a user name (spec §5) and as a tag.
 */
export function unique(prefix = "e2e"): string {
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix}${Date.now().toString(36)}${random}${(counter++).toString(36)}`.slice(0, 30);
}

export type User = { _id: string; userName: string };
/** What POST /api/auth/signup answers. */
export type Account = User & { email: string | null; createdAt: string };

/**
 * Sign up a new user through POST /api/auth/signup. With `page.request` the session cookie lands
 * in the page's browser context (signed in); with the `request` fixture it does not (still a guest).
 */
export async function signUp(request: APIRequestContext, prefix = "e2e"): Promise<Account> {
  const res = await request.post("/api/auth/signup", { data: { userName: unique(prefix), password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Account;
}

/** Log an existing user in on this request context (its cookie jar). */
export async function logIn(request: APIRequestContext, userName: string): Promise<void> {
  const res = await request.post("/api/auth/login", { data: { userName, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The first screen of a tab shows a 1.5 s splash; the head script skips it when this is set. */
export async function skipSplash(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => sessionStorage.setItem("echo.splashed", "1"));
}

/** A signed-in page for a brand-new user, in the test's own context. */
export async function signedInPage(page: Page, prefix = "ee"): Promise<Account> {
  await skipSplash(page.context());
  return signUp(page.request, prefix);
}

/** A second user in a separate browser context (own cookies); closed by the caller. */
export async function otherUser(browser: Browser, baseURL: string | undefined, prefix = "eo") {
  const context = await browser.newContext({ baseURL });
  await skipSplash(context);
  const page = await context.newPage();
  const user = await signUp(page.request, prefix);
  return { context, page, user };
}

/** A signed-up user with its own API context (own cookie jar); dispose it when done. */
export async function apiUser(playwright: { request: APIRequest }, baseURL: string | undefined, prefix = "cu") {
  const request = await playwright.request.newContext({ baseURL });
  const user = await signUp(request, prefix);
  return { request, user };
}

/**
 * Wait until the screen is usable: the first-screen splash has faded out and React has
 * hydrated (React tags the DOM nodes it owns with `__reactProps$…`). Before hydration a click
 * would submit the server-rendered form natively, skipping the client validation and toasts,
 * and a click on a menu button would do nothing.
 */
export async function waitForApp(page: Page): Promise<void> {
  await expect(page.locator("#splash")).toBeHidden();
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    return Boolean(main && Object.keys(main).some((key) => key.startsWith("__reactProps$")));
  });
}

/** Navigate and wait until the screen is usable; returns the document response. */
export async function open(page: Page, path: string) {
  await recordToasts(page);
  const response = await page.goto(path);
  await waitForApp(page);
  return response;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The toast with exactly this message (react-hot-toast renders each with role="status").
 * Exact and case-sensitive: a plain `hasText` string would also accept "Account created".
 */
export function toast(page: Page, text: string): Locator {
  return page.getByRole("status").filter({ hasText: new RegExp(`^\\s*${escape(text)}\\s*$`) });
}

/**
 * Every toast a page has shown, from its first `open` on: a success toast is on screen for 2 s
 * (spec: toast defaults) and leaves the DOM 1 s later, and on a machine loaded far past its two
 * cores a poll can come after it has gone (seen with three CI runs at once, load 30–56). The
 * page's own MutationObserver sees it whenever the page renders it.
 */
const recording = new WeakSet<Page>();
async function recordToasts(page: Page) {
  if (recording.has(page)) return;
  recording.add(page);
  await page.addInitScript(() => {
    const shown = new Set<string>();
    (window as unknown as { __echoToasts: Set<string> }).__echoToasts = shown;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(".toasts [role=status]")) shown.add((el.textContent ?? "").trim());
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * A toast with exactly this message is on screen now, or was shown since the page's first `open`
 * (`recordToasts`). Where a test needs the toast still on screen (to hover it, or to run axe on
 * it), it uses `toast()` itself.
 */
export async function expectToastShown(page: Page, text: string): Promise<void> {
  const recorded = () =>
    page
      .evaluate((t) => (window as unknown as { __echoToasts?: Set<string> }).__echoToasts?.has(t) ?? false, text)
      .catch(() => false); // a navigation in between: the next poll asks the new document
  await expect
    .poll(async () => (await toast(page, text).isVisible()) || (await recorded()), { message: `the toast "${text}"` })
    .toBe(true);
}

/** The page ends up on exactly this pathname, whatever its query (auto-retries like every web-first assertion). */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

/** The page ends up on exactly this pathname and query (none by default). */
export async function expectUrl(page: Page, pathname: string, search = ""): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === pathname && url.search === search);
}

/** Every POST the page sends (form actions go out as `fetch` POSTs once hydrated). */
export function recordPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (req) => {
    if (req.method() === "POST") posts.push(new URL(req.url()).pathname);
  });
  return posts;
}

// ── Screenshots for a person to look at (git-ignored screenshots/, not assertions) ─────────────

export const THEMES = ["light", "dark"] as const;
export const SCREEN_SIZES = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 800 } } as const;
export type Screen = { page: Page; theme: (typeof THEMES)[number]; size: keyof typeof SCREEN_SIZES };

/**
 * The axe rules whose verdict can change with the theme. The themes differ only in colour
 * variables (routes/app.css: `[data-theme]` sets colours, a shadow and color-scheme), so a page
 * judged whole in one theme needs only these in the other: the rest of axe's rules read the same
 * DOM and layout. A whole run took ~2.5 times these two on a loaded 2-core machine (13.7 s against 5.8 s).
 */
export const THEME_RULES = ["color-contrast", "link-in-text-block"];

/** Start a page's (or a context's) pages in this theme. */
export const useTheme = (target: Page | BrowserContext, theme: Screen["theme"]) =>
  target.addInitScript((t) => localStorage.setItem("theme", t), theme);

/** screenshots/<prefix>-<name>-<theme>-<size>.png */
export const screenshotPath = (prefix: string, name: string, { theme, size }: Pick<Screen, "theme" | "size">) =>
  `screenshots/${prefix}-${name}-${theme}-${size}.png`;

/**
 * Run `capture` once per theme × size, each time on a fresh page signed in as `userName` (splash
 * skipped, theme set); `shot(name)` takes a viewport screenshot into screenshots/.
 */
export async function eachScreen(
  browser: Browser,
  baseURL: string | undefined,
  { prefix, userName }: { prefix: string; userName: string },
  capture: (screen: Screen & { shot: (name: string) => Promise<unknown> }) => Promise<void>,
): Promise<void> {
  mkdirSync("screenshots", { recursive: true });
  for (const theme of THEMES) {
    for (const [size, viewport] of Object.entries(SCREEN_SIZES) as [Screen["size"], (typeof SCREEN_SIZES)[Screen["size"]]][]) {
      const context = await browser.newContext({ baseURL, viewport });
      await skipSplash(context);
      await useTheme(context, theme);
      const page = await context.newPage();
      await logIn(page.request, userName);
      const shot = (name: string) => page.screenshot({ path: screenshotPath(prefix, name, { theme, size }) });
      await capture({ page, theme, size, shot });
      await context.close();
    }
  }
}
