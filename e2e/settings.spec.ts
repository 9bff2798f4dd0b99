// /settings (spec §2): Dark Mode without a flash on reload, Account Information.
import { expect, test, type Page } from "@playwright/test";
import { open, signUp } from "./helpers";

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
