// The echo menu (menu button pattern), the dialogs it opens and the narrow-screen drawer, by
// keyboard only: focus goes where the ARIA practices say and comes back to what opened it.
import { expect, test, type Page } from "@playwright/test";
import { card, postEcho } from "./echo-helpers";
import { expectPath, open, signedInPage, unique } from "./helpers";
import { createCuration } from "./scroll-helpers";

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

test("the echo menu: one tab stop, Enter opens on the first item, arrows wrap, Home/End, Escape returns to the button", async ({ page }) => {
  await signedInPage(page, "mk");
  const echo = await postEcho(page.request, `Menu keys ${unique("t")}`);
  await open(page, `/echo/${echo._id}`);
  const detail = card(page, echo._id);
  const button = detail.getByRole("button", { name: "Echo menu" });
  await expect(button).toHaveAttribute("aria-haspopup", "menu");

  await button.focus();
  await page.keyboard.press("Enter");
  const menu = detail.getByRole("menu");
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(button).toHaveAttribute("aria-controls", (await menu.getAttribute("id")) ?? "missing");
  // items are reached by arrows, not Tab
  await expect(menu.getByRole("menuitem")).toHaveText(["Copy Link", "Save to Scroll", "Edit Echo", "Delete Echo"]);
  for (const item of await menu.getByRole("menuitem").all()) await expect(item).toHaveAttribute("tabindex", "-1");
  await expect(menu.getByRole("menuitem", { name: "Copy Link" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => focusedText(page)).toBe("Save to Scroll");
  await page.keyboard.press("End");
  await expect.poll(() => focusedText(page)).toBe("Delete Echo");
  await page.keyboard.press("ArrowDown"); // wraps
  await expect.poll(() => focusedText(page)).toBe("Copy Link");
  await page.keyboard.press("ArrowUp"); // wraps back
  await expect.poll(() => focusedText(page)).toBe("Delete Echo");
  await page.keyboard.press("Home");
  await expect.poll(() => focusedText(page)).toBe("Copy Link");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute("aria-expanded", "false");

  // ↑ on the button opens on the last item
  await page.keyboard.press("ArrowUp");
  await expect(detail.getByRole("menuitem", { name: "Delete Echo" })).toBeFocused();
  // Tab closes the menu and moves on
  await page.keyboard.press("Tab");
  await expect(detail.getByRole("menu")).toHaveCount(0);
});

test("the report dialog and the save-to-scroll dialog give focus back to the menu button", async ({ page, browser, baseURL }) => {
  await signedInPage(page, "dk");
  await createCuration(page.request, `Shelf ${unique("s")}`);
  const ctx = await browser.newContext({ baseURL });
  const author = await ctx.request.post("/api/auth/signup", { data: { userName: unique("dka"), password: "pass1234" } });
  expect(author.status()).toBe(201);
  const echo = await postEcho(ctx.request, `Someone else's ${unique("t")}`);
  await open(page, `/echo/${echo._id}`);
  const detail = card(page, echo._id);
  const button = detail.getByRole("button", { name: "Echo menu" });

  // Report: Escape closes the dialog
  await button.focus();
  await page.keyboard.press("Enter");
  // the menu opens on a render: keys sent before it is there would go to the button
  await expect(detail.getByRole("menu")).toBeVisible();
  await page.keyboard.press("End");
  await expect.poll(() => focusedText(page)).toBe("Report");
  await page.keyboard.press("Enter");
  const report = page.getByRole("dialog", { name: "Report echo" });
  await expect(report).toBeVisible();
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);
  await page.keyboard.press("Escape");
  // gone from the page: its close event (a task after Escape) has run
  await expect(report).toHaveCount(0);
  await expect(button).toBeFocused();

  // Report again, closed with its Cancel button
  await page.keyboard.press("ArrowUp");
  await expect.poll(() => focusedText(page)).toBe("Report");
  await page.keyboard.press("Enter");
  await expect(report).toBeVisible();
  await report.getByRole("button", { name: "Cancel" }).focus();
  await page.keyboard.press("Enter");
  await expect(report).toHaveCount(0);
  await expect(button).toBeFocused();

  // Save to Scroll: Cancel
  await page.keyboard.press("Enter");
  await expect(detail.getByRole("menu")).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => focusedText(page)).toBe("Save to Scroll");
  await page.keyboard.press("Enter");
  const save = page.getByRole("dialog", { name: "Save to Scroll" });
  await expect(save).toBeVisible();
  await save.getByRole("button", { name: "Cancel" }).focus();
  await page.keyboard.press("Enter");
  await expect(save).toHaveCount(0);
  await expect(button).toBeFocused();
  await ctx.close();
});

test("opening the menu starts loading the dialog; a dialog whose code cannot load closes, and choosing it again opens it", async ({ page, browser, baseURL }) => {
  await signedInPage(page, "dl");
  const ctx = await browser.newContext({ baseURL });
  expect((await ctx.request.post("/api/auth/signup", { data: { userName: unique("dla"), password: "pass1234" } })).status()).toBe(201);
  const echo = await postEcho(ctx.request, `Load me ${unique("t")}`);
  await ctx.close();
  // the dialog's chunk fails while the network is "down"
  let down = true;
  const dialogChunk = /\/assets\/report-dialog-[^/]+\.js$/;
  const asked: string[] = [];
  await page.route(dialogChunk, (route) => {
    asked.push(route.request().url());
    return down ? route.abort("internetdisconnected") : route.continue();
  });
  await open(page, `/echo/${echo._id}`);
  const detail = card(page, echo._id);
  const button = detail.getByRole("button", { name: "Echo menu" });
  await button.click();
  await expect(detail.getByRole("menu")).toBeVisible();
  // asked for on opening, before anything is chosen
  await expect.poll(() => asked.length).toBeGreaterThan(0);
  await detail.getByRole("menuitem", { name: "Report" }).click();
  const report = page.getByRole("dialog", { name: "Report echo" });
  // said, not silently dropped; focus stays on the menu button
  await expect(page.getByText("Could not load that action: check your connection")).toBeVisible();
  await expect(button).toBeFocused();
  await expect(report).toHaveCount(0);
  // back online: Report again opens it (the failed load was not kept)
  down = false;
  await button.click();
  await detail.getByRole("menuitem", { name: "Report" }).click();
  await expect(report).toBeVisible();
});

test.describe("narrow screen drawer", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("opening focuses the drawer, the page behind is inert, Escape closes and returns focus to the toggle", async ({ page }) => {
    await signedInPage(page, "dr");
    await open(page, "/");
    const toggle = page.getByRole("button", { name: "Toggle sidebar" });
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(sidebar).toBeVisible();
    await expect(sidebar.getByRole("link", { name: "Create Echo" })).toBeFocused();
    await expect(page.locator("main")).toHaveAttribute("inert", "");
    // Tab never reaches the page behind the drawer
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main")))).toBe(false);
    }
    await page.keyboard.press("Escape");
    await expect(sidebar).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator("main")).not.toHaveAttribute("inert", "");

    // following a link closes the drawer and focus lands on the new page's heading (a link
    // inside the home page's vertical: one into another loads a new document, docs/decisions/011)
    await page.keyboard.press("Enter");
    await expect(sidebar.getByRole("link", { name: "Create Echo" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expectPath(page, "/new");
    await expect(sidebar).toBeHidden();
    await expect(page.getByRole("heading", { name: "Create Echo", level: 1 })).toBeFocused();
  });
});
