// Moderation (issue 32, decision 029): a moderator made from the command line (`npm run moderator`
// against the test server's store, TEST_STATE_DIR) works the queue — a reported echo, its reason
// typed in the case's field, Hide echo and Resolve from the keyboard, the audit log — and the
// echo's author reads what happened on /account-status and appeals once. axe in both themes.
import { spawnSync } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { postEcho } from "./echo-helpers";
import { apiUser, expectToastShown, open, otherUser, PASSWORD, signedInPage, skipSplash, useTheme } from "./helpers";

const stateDir = process.env.TEST_STATE_DIR;

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
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
    await expectToastShown(page, "Echo hidden");
    // the queue itself says the echo is hidden (issue 32): read again, its case offers Unhide
    await open(page, "/moderation");
    await expect(card.getByText("(hidden from everyone but its author)")).toBeVisible();
    await expect(card.getByRole("button", { name: "Unhide echo" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Hide echo", exact: true })).toHaveCount(0);
    await card.getByLabel("Reason or note").fill(`Hidden for spam ${theme}`);
    await card.getByRole("button", { name: "Resolve" }).click();
    await expectToastShown(page, "Case resolved");
    await expect(card.getByText(new RegExp(`^Resolved .*: Hidden for spam ${theme}$`))).toBeVisible();
    const log = page.getByRole("region", { name: "Audit log" });
    await expect(log.getByText(reason)).toBeVisible();
    await expectAxeClean(page, theme);

    // reversible (decision 029): the resolved case offers Unhide; from the keyboard, audit-logged
    const shownAgain = `Shown again ${theme} ${Date.now()}`;
    await card.getByLabel("Reason or note").focus();
    await page.keyboard.type(shownAgain);
    await card.getByRole("button", { name: "Unhide echo" }).focus();
    await page.keyboard.press("Enter");
    await expectToastShown(page, "Echo shown again");
    await expect(card.getByRole("button", { name: "Unhide echo" })).toHaveCount(0);
    await expect(log.getByText(shownAgain)).toBeVisible();

    // the author: the notice with its reason, one appeal
    await open(author.page, "/account-status");
    const notice = author.page.getByRole("listitem").filter({ hasText: "A moderator hid one of your echos from everyone but you" });
    await expect(notice.getByText(reason)).toBeVisible();
    await expectAxeClean(author.page, theme);
    const appeal = `It was not spam ${theme} ${Date.now()}`;
    await notice.getByLabel("Appeal (once)").fill(appeal);
    await notice.getByRole("button", { name: "Send appeal" }).click();
    await expectToastShown(author.page, "Appeal sent");
    await expect(notice.getByText("You appealed:")).toBeVisible();
    await expect(notice.getByRole("button", { name: "Send appeal" })).toHaveCount(0);

    // the appeal is a case in the queue
    await open(page, "/moderation");
    await expect(page.getByRole("listitem").filter({ hasText: appeal }).getByText("Appeal by")).toBeVisible();
    await author.context.close();
    await reporter.request.dispose();
  });
}

test("a suspended account is told at log in, and appeals once on /appeal without a session", async ({ page, playwright, baseURL }) => {
  test.skip(!stateDir, "needs the test server's store (TEST_STATE_DIR) to make a moderator");
  test.setTimeout(120_000);
  const mod = await apiUser(playwright, baseURL, "emq");
  const made = spawnSync(process.execPath, ["scripts/moderator.mjs", mod.user.userName], { env: { ...process.env, STATE_DIR: stateDir }, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  const target = await apiUser(playwright, baseURL, "ems");
  expect((await mod.request.post(`/api/moderation/user/${target.user._id}`, { data: { action: "suspend", reason: "Spam ring" } })).status()).toBe(200);

  await skipSplash(page.context());
  await open(page, "/login");
  await page.getByLabel("Username").fill(target.user.userName);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expectToastShown(page, "Your account is suspended. You can appeal it once at /appeal.");

  await open(page, "/appeal");
  await expect(page.getByRole("heading", { name: "Appeal a suspension" })).toBeVisible();
  await page.getByLabel("Username").fill(target.user.userName);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Your appeal").fill("Not a spam ring");
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    await expectAxeClean(page, theme);
  }
  await page.getByRole("button", { name: "Send appeal" }).click();
  await expect(page.getByRole("heading", { name: "Appeal sent" })).toBeVisible();
  const queue = await mod.request.get(`/api/moderation/queue?user=${target.user._id}`);
  expect((await queue.json()).cases[0]).toMatchObject({ kind: "appeal", latestReason: "Not a spam ring" });
  await mod.request.dispose();
  await target.request.dispose();
});

test("a moderator limits an account from its case and lifts the limit from the keyboard, both audit-logged; axe in both themes", async ({ page, playwright, baseURL }) => {
  test.skip(!stateDir, "needs the test server's store (TEST_STATE_DIR) to make a moderator");
  test.setTimeout(120_000);
  const moderator = await signedInPage(page, "eml");
  const made = spawnSync(process.execPath, ["scripts/moderator.mjs", moderator.userName], { env: { ...process.env, STATE_DIR: stateDir }, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  const author = await apiUser(playwright, baseURL, "emk");
  const echo = await postEcho(author.request, `a limited author's echo ${Date.now()}`);
  const reporter = await apiUser(playwright, baseURL, "emj");
  expect((await reporter.request.post(`/api/echo/${echo._id}/report`, { data: { reason: "spam" } })).status()).toBe(201);

  await open(page, "/moderation");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: echo.content }) });
  const field = card.getByLabel("Reason or note");
  await field.fill("Spammy account");
  await card.getByRole("button", { name: "Limit", exact: true }).click();
  await expectToastShown(page, "Account limited");
  await expect(card.getByText("(Limited)")).toBeVisible();
  // the card now offers the lift in the limit's place
  await expect(card.getByRole("button", { name: "Limit", exact: true })).toHaveCount(0);
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    await expectAxeClean(page, theme);
  }
  const granted = `Appeal granted ${Date.now()}`;
  await field.focus();
  await page.keyboard.type(granted);
  await card.getByRole("button", { name: "Lift limit" }).focus();
  await page.keyboard.press("Enter");
  await expectToastShown(page, "Limit lifted");
  await expect(card.getByText("(Active)")).toBeVisible();
  const log = page.getByRole("region", { name: "Audit log" });
  // the log's line: who, "unlimit", whom, why
  await expect(log.getByRole("listitem").filter({ hasText: granted }).getByText("unlimit", { exact: true })).toBeVisible();
  await author.request.dispose();
  await reporter.request.dispose();
});

test("someone who is no moderator sees no queue", async ({ page }) => {
  await signedInPage(page, "emn");
  await open(page, "/moderation");
  await expect(page.getByText("Only moderators can see this page.")).toBeVisible();
});
