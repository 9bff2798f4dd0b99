// Helpers for the echo specs. Every test makes its own users and echos through the public
// /api, so the specs run in parallel against one shared server whose data persists.
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";

export const PASSWORD = "pass1234";

let counter = 0;
/** Letters and digits only, at most 30 characters: valid as a user name and as a tag. */
export function unique(prefix = "e2e"): string {
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix}${Date.now().toString(36)}${random}${(counter++).toString(36)}`.slice(0, 30);
}

export type User = { _id: string; userName: string };
export type Echo = {
  _id: string;
  content: string;
  author: User;
  tags: { _id: string; name: string }[];
  likes: number;
  isLiked: boolean;
  createdAt: string;
};

/** Sign up through the API; with `page.request` the session cookie lands in the page's context. */
export async function signUp(request: APIRequestContext, prefix = "ee"): Promise<User> {
  const res = await request.post("/api/auth/signup", { data: { userName: unique(prefix), password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as User;
}

export async function postEcho(request: APIRequestContext, content: string, tags: string[] = []): Promise<Echo> {
  const res = await request.post("/api/echo/post", { data: { content, tags } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { echo: Echo }).echo;
}

export async function likeEcho(request: APIRequestContext, id: string): Promise<void> {
  const res = await request.post(`/api/echo/like/${id}`);
  expect(res.status(), await res.text()).toBe(200);
}

/** The first screen of a tab shows a 1.5 s splash; the head script skips it when this is set. */
export async function skipSplash(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => sessionStorage.setItem("echo.splashed", "1"));
}

/** A signed-in page for a brand-new user, in the test's own context. */
export async function signedInPage(page: Page, prefix = "ee"): Promise<User> {
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

/**
 * Wait until the screen is usable: the splash is gone and React has hydrated (it tags the
 * nodes it owns with `__reactProps$…`); before that a click on a menu button does nothing.
 */
export async function waitForApp(page: Page): Promise<void> {
  await expect(page.locator("#splash")).toBeHidden();
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    return Boolean(main && Object.keys(main).some((key) => key.startsWith("__reactProps$")));
  });
}

export async function open(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForApp(page);
  return response;
}

export function card(page: Page, id: string): Locator {
  return page.locator(`[data-testid="echo-card"][data-echo-id="${id}"]`);
}

export function likeButton(echoCard: Locator): Locator {
  return echoCard.locator(".echo-actions button[aria-pressed]");
}

/** The like button's state: pressed, its accessible name and the count it shows. */
export async function expectLikeState(echoCard: Locator, liked: boolean, count: number): Promise<void> {
  const button = likeButton(echoCard);
  await expect(button).toHaveAttribute("aria-pressed", String(liked));
  await expect(button).toHaveAccessibleName(liked ? "Unlike" : "Like");
  await expect(button.locator(".like-count")).toHaveText(String(count));
}

export async function openMenu(echoCard: Locator): Promise<Locator> {
  await echoCard.getByRole("button", { name: "Echo menu" }).click();
  const menu = echoCard.getByRole("menu");
  await expect(menu).toBeVisible();
  return menu;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The toast with exactly this message (react-hot-toast renders each with role="status"). */
export function toast(page: Page, text: string): Locator {
  return page.getByRole("status").filter({ hasText: new RegExp(`^\\s*${escape(text)}\\s*$`) });
}

// react-hot-toast's default icon colours: the success check and the error cross.
const ICON_COLOUR = { success: "rgb(97, 211, 69)", error: "rgb(255, 75, 75)" } as const;

/** A visible toast with exactly this text, of this kind (told apart by its icon). */
export async function expectToast(page: Page, text: string, kind: "success" | "error"): Promise<void> {
  const message = toast(page, text).first();
  await expect(message).toBeVisible();
  const colours = await message.evaluate((el) =>
    Array.from(el.parentElement?.querySelectorAll("div") ?? [], (d) => getComputedStyle(d).backgroundColor),
  );
  expect(colours, `icon of toast "${text}"`).toContain(ICON_COLOUR[kind]);
}

/** Ids of the echo cards in the DOM right now, in document order. */
export function cardIds(page: Page): Promise<string[]> {
  return page.getByTestId("echo-card").evaluateAll((els) => els.map((el) => el.getAttribute("data-echo-id") ?? ""));
}
