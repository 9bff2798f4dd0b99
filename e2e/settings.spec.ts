// /settings (spec §2): Dark Mode without a flash on reload, Account Information.
import { createRequire } from "node:module";
import { expect, request as apiRequest, test, type Page } from "@playwright/test";
import { expectToastShown, open, PASSWORD, recordPosts, signUp } from "./helpers";

type Snapshot = { theme: string | undefined; background: string | null };
type Probe = { atBody?: Snapshot; atFirstFrame?: Snapshot; atDomContentLoaded?: Snapshot };

const DARK_BG = "rgb(14, 16, 22)"; // --bg of [data-theme="dark"] in routes/app.css
const LIGHT_BG = "rgb(246, 247, 251)"; // --bg of the light theme

/**
 * Records the theme of every document this page loads, before any of the app's bundled
 * scripts can change it: when <body> is first parsed (after the inline head script),
 * in the first animation frame (right before first paint, so with the stylesheet applied),
 * and at DOMContentLoaded.
 */
async function probeFirstPaint(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const probe: Probe = {};
    (window as unknown as { __themeProbe: Probe }).__themeProbe = probe;
    const snap = (): Snapshot => ({
      theme: document.documentElement?.dataset.theme,
      background: document.body ? getComputedStyle(document.body).backgroundColor : null,
    });
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      probe.atBody = snap();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
    requestAnimationFrame(() => (probe.atFirstFrame = snap()));
    document.addEventListener("DOMContentLoaded", () => (probe.atDomContentLoaded = snap()));
  });
}

const readProbe = (page: Page) =>
  page.evaluate(() => (window as unknown as { __themeProbe: Probe }).__themeProbe);

const storedTheme = (page: Page) => page.evaluate(() => localStorage.getItem("theme"));

test("the Dark Mode switch applies and remembers the theme with no flash on reload", async ({ page }) => {
  await signUp(page.request);
  await probeFirstPaint(page);
  await open(page, "/settings");
  const html = page.locator("html");
  const darkMode = page.getByRole("switch", { name: "Dark Mode" });

  // Starts light.
  await expect(darkMode).not.toBeChecked();
  await expect(html).toHaveAttribute("data-theme", "light");
  expect(await storedTheme(page)).toBeNull();

  // Dark.
  await darkMode.check();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.locator("body")).toHaveCSS("background-color", DARK_BG);
  expect(await storedTheme(page)).toBe("dark");

  // Reload: dark from the very first paint, before the app's scripts run.
  await page.reload();
  await expect.poll(() => readProbe(page)).toEqual({
    atBody: { theme: "dark", background: expect.any(String) },
    atFirstFrame: { theme: "dark", background: DARK_BG },
    atDomContentLoaded: { theme: "dark", background: DARK_BG },
  });
  await expect(darkMode).toBeChecked();
  await expect(html).toHaveAttribute("data-theme", "dark");

  // The theme is global: another screen in a new tab opens dark too, splash included.
  const other = await page.context().newPage();
  await probeFirstPaint(other);
  await other.goto("/");
  await expect.poll(() => readProbe(other)).toMatchObject({ atFirstFrame: { theme: "dark", background: DARK_BG } });
  await expect(other.locator("#splash")).toHaveCSS("background-color", DARK_BG);
  await other.close();

  // And back to light, which also survives a reload.
  await darkMode.uncheck();
  await expect(html).toHaveAttribute("data-theme", "light");
  await expect(page.locator("body")).toHaveCSS("background-color", LIGHT_BG);
  expect(await storedTheme(page)).toBe("light");
  await page.reload();
  await expect.poll(() => readProbe(page)).toMatchObject({
    atFirstFrame: { theme: "light", background: LIGHT_BG },
    atDomContentLoaded: { theme: "light", background: LIGHT_BG },
  });
  await expect(darkMode).not.toBeChecked();
});

test("Account Information shows the user name and the date they joined", async ({ page }) => {
  const user = await signUp(page.request);
  await open(page, "/settings");

  const card = page.locator("section", { has: page.getByRole("heading", { name: "Account Information" }) });
  const value = (term: string) => card.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");

  await expect(value("Username")).toHaveText(user.userName);
  // Joined: the sign-up day as a readable date, e.g. "November 22, 2026".
  const joined = new Date(user.createdAt).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  await expect(value("Joined")).toHaveText(joined);
  await expect(value("Joined")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
});

// Change password and delete account (issue 12). axe runs on the page, so these tests inject
// axe-core; bypassCSP lets that one script in (the app's own CSP is tested elsewhere).
test.describe("Password and Delete Account", () => {
  test.use({ bypassCSP: true });

  const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

  /** axe (WCAG 2 A/AA, 2.1, 2.2) on the two new sections: no serious or critical violation. */
  async function expectNoSeriousAxe(page: Page) {
    await page.addScriptTag({ path: axePath });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
      const result = await axe.run(
        { include: [["section[aria-labelledby='change-password-title']"], ["section[aria-labelledby='delete-account-title']"]] },
        { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"] } },
      );
      return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);
  }

  test("Change Password: errors under their fields, then the other sessions are signed out", async ({ page, baseURL }) => {
    const user = await signUp(page.request);
    const elsewhere = await apiRequest.newContext({ baseURL });
    expect((await elsewhere.post("/api/auth/login", { data: { userName: user.userName, password: PASSWORD } })).ok()).toBe(true);
    await open(page, "/settings");
    const posts = recordPosts(page);
    const card = page.locator("section", { has: page.getByRole("heading", { name: "Change Password" }) });
    const current = card.getByLabel("Current password");
    const next = card.getByLabel("New password");
    const submit = card.getByRole("button", { name: "Change Password" });

    await submit.click();
    await expect(current).toHaveAttribute("aria-invalid", "true");
    await expect(current).toHaveAccessibleDescription("Current password is required");
    await expect(next).toHaveAccessibleDescription(/Password is required/);
    await expectNoSeriousAxe(page);

    await current.fill("not-my-password");
    await next.fill("abc");
    await submit.click();
    await expect(next).toHaveAccessibleDescription(/Password must be at least 4 characters/);

    await next.fill("brand-new-pass");
    await submit.click();
    await expect(current).toHaveAccessibleDescription("Current password is incorrect");
    await expect(next).toHaveAttribute("aria-invalid", "false");

    await current.fill(PASSWORD);
    await submit.click();
    await expectToastShown(page, "Password changed");
    await expect(current).toHaveValue("");
    await expect(next).toHaveValue("");
    // issue 30: the form posts to the settings page's action (a fetcher), not to /api; the two
    // ill-formed tries never left the page, the wrong password and the change did
    expect(posts).toEqual(["/settings.data", "/settings.data"]);
    // the other session is gone; this one stays signed in
    expect((await elsewhere.get("/api/auth/me")).status()).toBe(401);
    await elsewhere.dispose();
    expect((await page.request.get("/api/auth/me")).status()).toBe(200);
    const fresh = await apiRequest.newContext({ baseURL });
    expect((await fresh.post("/api/auth/login", { data: { userName: user.userName, password: "brand-new-pass" } })).ok()).toBe(true);
    await fresh.dispose();
  });

  test("Delete Account: confirmed, then signed out at the login screen; the account is gone", async ({ page, baseURL }) => {
    const user = await signUp(page.request);
    expect((await page.request.post("/api/echo/post", { data: { content: "soon gone", tags: [] } })).status()).toBe(201);
    await open(page, "/settings");
    const posts = recordPosts(page);
    const card = page.locator("section", { has: page.getByRole("heading", { name: "Delete Account" }) });
    const password = card.getByLabel("Password");
    const submit = card.getByRole("button", { name: "Delete Account" });

    await submit.click();
    await expect(password).toHaveAccessibleDescription("Password is required");

    // a wrong password: confirmed, then refused under the field
    await password.fill("not-my-password");
    page.once("dialog", (dialog) => void dialog.accept());
    await submit.click();
    await expect(password).toHaveAccessibleDescription("Password is incorrect");

    // the right one, but the confirmation is cancelled: nothing is sent
    await password.fill(PASSWORD);
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await submit.click();
    await expect.poll(() => asked).toContain("cannot be undone");
    expect((await page.request.get("/api/auth/me")).status()).toBe(200);

    page.once("dialog", (dialog) => void dialog.accept());
    await submit.click();
    await expect(page).toHaveURL((url) => url.pathname === "/login");
    await expectToastShown(page, "Your account has been deleted");
    // the wrong password and the deletion went to the settings page's action; the cancelled try sent nothing
    expect(posts).toEqual(["/settings.data", "/settings.data"]);
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    expect((await page.request.get("/api/auth/me")).status()).toBe(401);
    const again = await apiRequest.newContext({ baseURL });
    expect((await again.post("/api/auth/login", { data: { userName: user.userName, password: PASSWORD } })).status()).toBe(401);
    await again.dispose();
  });
});

test("with no theme chosen, the OS's dark preference applies from the first paint", async ({ page }) => {
  await signUp(page.request);
  await page.emulateMedia({ colorScheme: "dark" });
  await probeFirstPaint(page);
  await open(page, "/settings");
  await expect.poll(() => readProbe(page)).toMatchObject({
    atFirstFrame: { theme: "dark", background: DARK_BG },
    atDomContentLoaded: { theme: "dark", background: DARK_BG },
  });
  expect(await storedTheme(page)).toBeNull();
  const darkMode = page.getByRole("switch", { name: "Dark Mode" });
  await expect(darkMode).toBeChecked();
  // an explicit choice wins over the OS from then on
  await darkMode.uncheck();
  expect(await storedTheme(page)).toBe("light");
  await page.reload();
  await expect.poll(() => readProbe(page)).toMatchObject({ atFirstFrame: { theme: "light", background: LIGHT_BG } });
});

test("a theme change in one tab applies in the other open tabs", async ({ page }) => {
  await signUp(page.request);
  await open(page, "/settings");
  const other = await page.context().newPage();
  await open(other, "/settings");
  await expect(other.locator("html")).toHaveAttribute("data-theme", "light");

  await page.getByRole("switch", { name: "Dark Mode" }).check();
  await expect(other.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(other.locator("body")).toHaveCSS("background-color", DARK_BG);
  await expect(other.getByRole("switch", { name: "Dark Mode" })).toBeChecked();

  await other.getByRole("switch", { name: "Dark Mode" }).uncheck();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect(page.getByRole("switch", { name: "Dark Mode" })).not.toBeChecked();
  await other.close();
});
