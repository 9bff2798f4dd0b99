// Edits with history and content warnings (issue 31, decision 025) in Chromium: the author edits
// from the echo menu by keyboard, every reader sees "edited" and the history, and a content
// warning is a disclosure (button, aria-expanded, aria-controls) over text and tags, opened by
// keyboard; axe finds nothing serious on the echo page in both themes with both open.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { card } from "./echo-helpers";
import { open, signedInPage, THEMES, unique, useTheme } from "./helpers";

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

async function noSeriousViolations(page: Page) {
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, page.url()).toEqual([]);
}

test("the author edits an echo by keyboard: new text, tag and warning; 'edited', the history, the warning disclosure", async ({ page }) => {
  await signedInPage(page, "ke");
  const tag = unique("tg").toLowerCase();
  const res = await page.request.post("/api/echo/post", { data: { content: "First words", tags: ["before"] } });
  const echo = (await res.json()).echo as { _id: string };
  await open(page, `/echo/${echo._id}`);
  const detail = card(page, echo._id);
  await expect(detail.getByText("edited")).toHaveCount(0);

  const menuButton = detail.getByRole("button", { name: "Echo menu" });
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => focusedText(page)).toBe("Edit Echo");
  await page.keyboard.press("Enter");

  const dialog = page.getByRole("dialog", { name: "Edit echo" });
  await expect(dialog).toBeVisible();
  const text = dialog.getByRole("textbox", { name: "Text" });
  await expect(text).toHaveValue("First words");
  await text.fill(`Second words #${tag}`);
  await dialog.getByRole("textbox", { name: "Content warning (optional)" }).fill("Mild spoilers");
  await dialog.getByRole("textbox", { name: "Content warning (optional)" }).press("Enter");
  await expect(dialog).toBeHidden();
  // focus is back on the menu button
  await expect(menuButton).toBeFocused();

  // the warning is shown, the text and tags are hidden until opened
  const toggle = detail.getByRole("button", { name: "Show text", exact: true });
  await expect(detail.getByText("Content warning: Mild spoilers")).toBeVisible();
  await expect(detail.getByText("Second words")).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  const region = page.locator(`#${await toggle.getAttribute("aria-controls")}`);
  await expect(region).toBeHidden();
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(detail.getByRole("button", { name: "Hide text", exact: true })).toHaveAttribute("aria-expanded", "true");
  await expect(detail.getByText("Second words")).toBeVisible();
  await expect(detail.getByRole("link", { name: `#${tag}` }).first()).toBeVisible();
  await expect(detail.locator("time", { hasText: "edited" })).toBeVisible();
  await page.keyboard.press("Space");
  await expect(region).toBeHidden();

  // the history, a disclosure too: the version as posted
  const history = page.getByRole("button", { name: "Show edit history" });
  await history.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Hide edit history" })).toHaveAttribute("aria-expanded", "true");
  const versions = page.getByRole("list", { name: "Earlier versions, newest first" });
  await expect(versions.getByRole("listitem")).toHaveCount(1);
  await expect(versions).toContainText("First words");
  await expect(versions).toContainText("#before");

  // a reload reads the edit from the server: the same
  await page.reload();
  await expect(card(page, echo._id).getByText("Content warning: Mild spoilers")).toBeVisible();
  await expect(card(page, echo._id).getByText("Second words")).toBeHidden();
});

for (const theme of THEMES) {
  test(`a warned, edited echo on its page and on a tag page, another reader, ${theme}: disclosure by keyboard, axe`, async ({ page, browser, baseURL }) => {
    const authorContext = await browser.newContext({ baseURL });
    const tag = unique("cw").toLowerCase();
    const signup = await authorContext.request.post("/api/auth/signup", { data: { userName: unique("ca"), password: "pass1234" } });
    expect(signup.status()).toBe(201);
    const posted = await authorContext.request.post("/api/echo/post", { data: { content: "The butler did it", tags: [tag], warning: "Ending spoiler" } });
    const echo = (await posted.json()).echo as { _id: string };
    expect((await authorContext.request.patch(`/api/echo/${echo._id}/edit`, { data: { content: "The gardener did it", tags: [tag], warning: "Ending spoiler" } })).status()).toBe(200);
    await authorContext.close();

    await useTheme(page, theme);
    await signedInPage(page, "cr");
    await open(page, `/tag/${tag}`);
    const listed = card(page, echo._id);
    await expect(listed.getByText("Content warning: Ending spoiler")).toBeVisible();
    await expect(listed.getByText("The gardener did it")).toBeHidden();
    await expect(listed.getByRole("link", { name: `#${tag}` })).toBeHidden();
    await noSeriousViolations(page);
    await listed.getByRole("button", { name: "Show text", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(listed.getByText("The gardener did it")).toBeVisible();

    await open(page, `/echo/${echo._id}`);
    // the tab's title names the warning, not the text
    await expect(page).toHaveTitle(/CW: Ending spoiler/);
    const detail = card(page, echo._id);
    await expect(detail.getByText("The gardener did it")).toBeHidden();
    await detail.getByRole("button", { name: "Show text", exact: true }).click();
    await page.getByRole("button", { name: "Show edit history" }).click();
    await expect(page.getByRole("list", { name: "Earlier versions, newest first" })).toContainText("The butler did it");
    await noSeriousViolations(page);
  });
}

test("a content warning typed on /new hides the posted echo's text on home until opened", async ({ page }) => {
  await signedInPage(page, "cn");
  await open(page, "/new");
  const warning = `Warned ${unique("w")}`;
  await page.getByRole("textbox", { name: "What's on your mind?" }).fill("Hidden until opened");
  await page.getByRole("textbox", { name: "Content warning (optional)" }).fill(warning);
  await page.getByRole("button", { name: "Post", exact: true }).click();
  const label = page.getByText(`Content warning: ${warning}`).first();
  await expect(label).toBeVisible();
  const row = page.locator(".echo-warning", { has: label }).first();
  await expect(page.getByText("Hidden until opened").first()).toBeHidden();
  await row.getByRole("button", { name: "Show text", exact: true }).press("Enter");
  await expect(page.getByText("Hidden until opened").first()).toBeVisible();
});
