// /scrolls and /scrolls/curations read one page of the viewer's scrolls (issue 28: they read every
// scroll), newest first; 'Older scrolls' goes on from the page's last one and 'Newest scrolls'
// comes back, as plain links (they work before hydration too). Axe in both themes on the pager.
import { expect, test } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { signedInPage, THEMES, useTheme, waitForApp } from "./helpers";

const PAGE = 50; // SCROLLS_PAGE in modules/scroll/lists.server.ts

test.describe.configure({ timeout: 180_000 });

test("a viewer with more scrolls than a page pages them by 'Older scrolls' and back; axe finds nothing serious", async ({ page }) => {
  await signedInPage(page, "sp");
  // PAGE + 2 curations, oldest first: 'Paged 00' … 'Paged 51' (the create limit is 60 per 10 minutes)
  for (let i = 0; i < PAGE + 2; i++) {
    const res = await page.request.post("/api/scroll/create", { data: { name: `Paged ${String(i).padStart(2, "0")}`, type: "curation" } });
    expect(res.status()).toBe(201);
  }
  // scoped to the page's main area: the sidebar lists the newest scrolls too
  const main = page.getByRole("main");
  for (const path of ["/scrolls", "/scrolls/curations"]) {
    await page.goto(path);
    await waitForApp(page);
    const older = main.getByRole("link", { name: "Older scrolls" });
    await expect(older).toBeVisible();
    await expect(main.getByRole("link", { name: "Newest scrolls" })).toHaveCount(0);
    await expect(main.getByText("Paged 51", { exact: true })).toBeVisible();
    await expect(main.getByText("Paged 01", { exact: true })).toHaveCount(0);
    await older.click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(main.getByText("Paged 01", { exact: true })).toBeVisible();
    await expect(main.getByText("Paged 00", { exact: true })).toBeVisible();
    await expect(main.getByText("Paged 51", { exact: true })).toHaveCount(0);
    await expect(main.getByRole("link", { name: "Older scrolls" })).toHaveCount(0);
    await main.getByRole("link", { name: "Newest scrolls" }).click();
    await expect(main.getByText("Paged 51", { exact: true })).toBeVisible();
  }
  for (const theme of THEMES) {
    await useTheme(page, theme);
    await page.goto("/scrolls");
    await waitForApp(page);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`), theme).toEqual([]);
  }
});
