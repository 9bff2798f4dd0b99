// Moderation (issue 32, decision 029): a moderator made from the command line (`npm run moderator`
// against the test server's store, TEST_STATE_DIR) works the queue — a reported echo, its reason
// typed in the case's field, Hide echo and Resolve from the keyboard, the audit log — and the
// echo's author reads what happened on /account-status and appeals once. axe in both themes.
import { spawnSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { postEcho } from "./echo-helpers";
import { apiUser, open, otherUser, signedInPage, toast, useTheme } from "./helpers";

const stateDir = process.env.TEST_STATE_DIR;

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test(`a moderator hides a reported echo from the queue; its author reads why and appeals (${theme})`, async ({ page, browser, playwright, baseURL }) => {
    test.skip(!stateDir, "needs the test server's store (TEST_STATE_DIR) to make a moderator");
    // the command line starts wrangler (~10 s on this machine) besides three sign-ups
    test.setTimeout(120_000);
    await useTheme(page, theme);
    const moderator = await signedInPage(page, "emo");
    const made = spawnSync(process.execPath, ["scripts/moderator.mjs", moderator.userName], { env: { ...process.env, STATE_DIR: stateDir }, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);

    const author = await otherUser(browser, baseURL, "ema");
    await useTheme(author.page, theme);
    const echo = await postEcho(author.page.request, `a reported echo ${theme} ${Date.now()}`);
    const reporter = await apiUser(playwright, baseURL, "emr");
    expect((await reporter.request.post(`/api/echo/${echo._id}/report`, { data: { reason: "spam" } })).status()).toBe(201);

    await open(page, "/moderation");
    await expect(page.getByRole("heading", { name: "Moderation", level: 1 })).toBeVisible();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: echo.content }) });
    await expect(card.getByText("1 report, latest:")).toBeVisible();
    await expectAxeClean(page, theme);

    // from the keyboard: the field, then Tab to the actions
    await card.getByLabel("Reason or note").focus();
    const reason = `Spam links ${theme} ${Date.now()}`;
    await page.keyboard.type(reason);
    await card.getByRole("button", { name: "Hide echo" }).focus();
    await page.keyboard.press("Enter");
    await expect(toast(page, "Echo hidden")).toBeVisible();
    await card.getByLabel("Reason or note").fill(`Hidden for spam ${theme}`);
    await card.getByRole("button", { name: "Resolve" }).click();
    await expect(toast(page, "Case resolved")).toBeVisible();
    await expect(card.getByText(new RegExp(`^Resolved .*: Hidden for spam ${theme}$`))).toBeVisible();
    const log = page.getByRole("region", { name: "Audit log" });
    await expect(log.getByText(reason)).toBeVisible();
    await expectAxeClean(page, theme);

    // the author: the notice with its reason, one appeal
    await open(author.page, "/account-status");
    const notice = author.page.getByRole("listitem").filter({ hasText: "A moderator hid one of your echos from everyone but you" });
    await expect(notice.getByText(reason)).toBeVisible();
    await expectAxeClean(author.page, theme);
    const appeal = `It was not spam ${theme} ${Date.now()}`;
    await notice.getByLabel("Appeal (once)").fill(appeal);
    await notice.getByRole("button", { name: "Send appeal" }).click();
    await expect(toast(author.page, "Appeal sent")).toBeVisible();
    await expect(notice.getByText("You appealed:")).toBeVisible();
    await expect(notice.getByRole("button", { name: "Send appeal" })).toHaveCount(0);

    // the appeal is a case in the queue
    await open(page, "/moderation");
    await expect(page.getByRole("listitem").filter({ hasText: appeal }).getByText("Appeal by")).toBeVisible();
    await author.context.close();
    await reporter.request.dispose();
  });
}

test("someone who is no moderator sees no queue", async ({ page }) => {
  await signedInPage(page, "emn");
  await open(page, "/moderation");
  await expect(page.getByText("Only moderators can see this page.")).toBeVisible();
});
