// The signed-in app shell (spec §2): sidebar, narrow-screen toggle, unknown paths.
import { expect, test } from "@playwright/test";
import { expectPath, open, signUp, waitForApp } from "./helpers";

const SIDEBAR_LINKS = ["Create Echo", "Feed", "Scrolls", "Explore", "Community Scroll", "Tags", "Popular"];

test("the sidebar links to every section, the user's profile and Settings", async ({ page }) => {
  const { userName } = await signUp(page.request);
  await open(page, "/");
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });

  for (const name of [...SIDEBAR_LINKS, `@${userName}`, "Settings"]) {
    await expect(sidebar.getByRole("link", { name, exact: true }), name).toBeVisible();
  }
  await expect(sidebar.getByRole("link", { name: "Feed", exact: true })).toHaveAttribute("aria-current", "page");

  await sidebar.getByRole("link", { name: "Settings", exact: true }).click();
  await expectPath(page, "/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Settings", exact: true })).toHaveAttribute("aria-current", "page");
});

test("on a wide screen the sidebar is always shown and there is no toggle", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page.request);
  await open(page, "/");

  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("button", { name: "Toggle sidebar" })).toBeHidden();
});

test.describe("narrow screen", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("the sidebar stays hidden until 'Toggle sidebar' is clicked", async ({ page }) => {
    await signUp(page.request);
    await open(page, "/");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    const toggle = page.getByRole("button", { name: "Toggle sidebar" });

    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(sidebar).not.toBeInViewport();
    await expect(sidebar).toBeHidden();
    // Hidden for the keyboard too: tabbing from the toggle skips the off-screen links.
    await toggle.focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Echo", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.locator(":focus")).not.toHaveCount(0);
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest(".sidebar")))).toBe(false);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(sidebar).toBeVisible();
    await expect(sidebar).toBeInViewport({ ratio: 1 });

    // Toggling again hides it.
    await toggle.click();
    await expect(sidebar).toBeHidden();
    await expect(sidebar).not.toBeInViewport();

    // Following a link from the opened sidebar navigates and closes it.
    await toggle.click();
    await sidebar.getByRole("link", { name: "Settings", exact: true }).click();
    await expectPath(page, "/settings");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(sidebar).toBeHidden();
  });
});

test("an unknown path shows 'Page not found' with status 404", async ({ page }) => {
  await signUp(page.request);
  const response = await open(page, "/nope");

  expect(response?.status()).toBe(404);
  await expectPath(page, "/nope");
  await expect(page.getByText("Page not found", { exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · Echo");
  // Still inside the shell, with a way back.
  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Go home" }).click();
  await expectPath(page, "/");
});

test("the main screens load and hydrate without console errors or page errors", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));

  await open(page, "/login");
  await open(page, "/signup");
  await signUp(page.request);
  await open(page, "/");
  await open(page, "/settings");
  // Hydrating a dark page (server HTML says light, the head script says dark) must not complain.
  await page.getByRole("switch", { name: "Dark Mode" }).check();
  await page.reload();
  await waitForApp(page);
  await page.getByRole("link", { name: "Feed", exact: true }).click();
  await expectPath(page, "/");

  expect(problems).toEqual([]);
});
