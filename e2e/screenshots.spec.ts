// Not a test: captures the main screens for a human to look at (git-ignored screenshots/).
// Run with `SCREENSHOTS=1 npx playwright test screenshots` against a running server.
import { test } from "@playwright/test";
import { open, SCREEN_SIZES, signUp, THEMES, useTheme } from "./helpers";

for (const theme of THEMES) {
  for (const [size, viewport] of Object.entries(SCREEN_SIZES)) {
    test(`screens, ${theme}, ${size}`, async ({ page, browser }) => {
      const shoot = (name: string) => page.screenshot({ path: `screenshots/${name}-${theme}-${size}.png`, fullPage: true });
      await page.setViewportSize(viewport);
      await useTheme(page, theme);

      await open(page, "/login");
      await shoot("login");
      await page.getByRole("button", { name: "Log in" }).click(); // with validation messages
      await shoot("login-errors");
      await open(page, "/signup");
      await shoot("signup");

      await signUp(page.request);
      await open(page, "/");
      await shoot("home");
      await open(page, "/settings");
      await shoot("settings");
      await open(page, "/nope");
      await shoot("not-found");
      if (size === "narrow") {
        await page.getByRole("button", { name: "Toggle sidebar" }).click();
        await page.waitForTimeout(400);
        await shoot("sidebar-open");
      }

      // The splash as a new tab shows it.
      const fresh = await browser.newPage({ viewport });
      await useTheme(fresh, theme);
      await fresh.goto("/login");
      await fresh.screenshot({ path: `screenshots/splash-${theme}-${size}.png` });
      await fresh.close();
    });
  }
}
