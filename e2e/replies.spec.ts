// Replies and threads (issue 31, decision 024): from a card's Reply link (keyboard) to the echo's
// page with the reply box focused, a reply posted there shows in the thread and in the counts,
// nested replies and a deleted parent's placeholder read in place; axe in both themes.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { card, postEcho, type Echo } from "./echo-helpers";
import { apiUser, expectPath, open, signedInPage, unique, useTheme } from "./helpers";

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

test("reply from the echo page: the thread shows it, the cards count it; nesting and a deleted parent read in place", async ({ page, playwright, baseURL }) => {
  await useTheme(page, "light");
  const alice = await signedInPage(page, "rya");
  const bob = await apiUser(playwright, baseURL, "ryb");
  const tag = unique("thr");
  const echo = await postEcho(bob.request, "Which trail tomorrow?", [tag]);
  const earlyRes = await bob.request.post(`/api/echo/${echo._id}/reply`, { data: { content: "The coast one, I think" } });
  expect(earlyRes.status()).toBe(201);
  const early = ((await earlyRes.json()) as { echo: Echo }).echo;
  expect((await bob.request.post(`/api/echo/${early._id}/reply`, { data: { content: "Or the ridge" } })).status()).toBe(201);

  // the card on the tag page counts the reply; its Reply link is reached from the keyboard
  await open(page, `/tag/${tag}`);
  const listed = card(page, echo._id);
  const replyLink = listed.getByRole("link", { name: "Reply, 1 reply" });
  await expect(replyLink).toBeVisible();
  await replyLink.focus();
  await page.keyboard.press("Enter");
  await expectPath(page, `/echo/${echo._id}`);

  // the reply box is focused and labelled; the thread shows the reply with its own reply nested
  const box = page.getByRole("textbox", { name: `Reply to @${bob.user.userName}` });
  await expect(box).toBeFocused();
  const replies = page.getByRole("region", { name: "Replies" });
  await expect(replies.getByText("The coast one, I think")).toBeVisible();
  await expect(replies.getByRole("list", { name: "Replies to this reply" }).getByText("Or the ridge")).toBeVisible();
  await expectAxeClean(page, "light");

  await page.keyboard.type("The ridge, at dawn #hiking");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Reply", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue("");
  const mine = replies.locator('[data-testid="echo-card"]', { hasText: "The ridge, at dawn" });
  await expect(mine).toBeVisible();
  await expect(mine.getByRole("link", { name: "#hiking" })).toBeVisible();
  await expect(card(page, echo._id).getByRole("link", { name: "Reply, 2 replies" })).toBeVisible();

  // after a reload the server's thread has it, and the tag page's card counts 2
  await open(page, `/echo/${echo._id}`);
  await expect(replies.getByText("The ridge, at dawn")).toBeVisible();
  await open(page, `/tag/${tag}`);
  await expect(card(page, echo._id).getByRole("link", { name: "Reply, 2 replies" })).toBeVisible();

  // bob deletes his first reply: its place says so, and the reply under it still reads
  expect((await bob.request.delete(`/api/echo/delete/${early._id}`)).status()).toBe(200);
  await useTheme(page, "dark");
  await open(page, `/echo/${echo._id}`);
  await expect(replies.getByText("This echo was deleted")).toBeVisible();
  await expect(replies.getByText("Or the ridge")).toBeVisible();
  await expect(card(page, echo._id).getByRole("link", { name: "Reply, 1 reply" })).toBeVisible();
  await expectAxeClean(page, "dark");
  expect(alice.userName).not.toBe(bob.user.userName);
  await bob.request.dispose();
});
