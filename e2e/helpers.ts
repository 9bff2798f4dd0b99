// Shared helpers for the Playwright specs. Every test makes its own user, so specs run in
// parallel against one server without sharing state.
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

export const PASSWORD = "pass1234";

let counter = 0;
/**
 * A user name no other test (in this run or an earlier one on the same server) uses:
 * letters and digits only, at most 30 characters (spec §5).
 */
export function uniqueName(prefix = "e2e"): string {
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix}${Date.now().toString(36)}${random}${(counter++).toString(36)}`.slice(0, 30);
}

export type ApiUser = { _id: string; userName: string; email: string | null; createdAt: string };

/**
 * Create a user through POST /api/auth/signup. With `page.request` the session cookie lands in
 * the page's browser context (signed in); with the `request` fixture it does not (still a guest).
 */
export async function signUpViaApi(
  request: APIRequestContext,
  userName = uniqueName(),
  password = PASSWORD,
): Promise<ApiUser> {
  const res = await request.post("/api/auth/signup", { data: { userName, password } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as ApiUser;
}

/**
 * Wait until the screen is usable: the first-screen splash has faded out and React has
 * hydrated (React tags the DOM nodes it owns with `__reactProps$…`). Before hydration a click
 * would submit the server-rendered form natively, skipping the client validation and toasts.
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
  const response = await page.goto(path);
  await waitForApp(page);
  return response;
}

/**
 * The toast with exactly this message (react-hot-toast renders each with role="status").
 * Exact and case-sensitive: a plain `hasText` string would also accept "Account created".
 */
export function toast(page: Page, text: string): Locator {
  const exact = new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);
  return page.getByRole("status").filter({ hasText: exact });
}

/** The page ends up on exactly this pathname (auto-retries like every web-first assertion). */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

/** Every POST the page sends (form actions go out as `fetch` POSTs once hydrated). */
export function recordPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (req) => {
    if (req.method() === "POST") posts.push(new URL(req.url()).pathname);
  });
  return posts;
}
