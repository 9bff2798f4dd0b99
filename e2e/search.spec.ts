// Search echos in Chromium (issue 18): a word typed in /search finds the echo, the word is
// marked in its text (a <mark>, not markup from the server), the result is reached and opened
// from the keyboard, and axe finds no serious or critical violation on the results, light and dark.
import { expect, test } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { postEcho } from "./echo-helpers";
import { open, signedInPage, unique, useTheme } from "./helpers";

test("a word typed in /search finds the echo with the word marked; keyboard reaches and opens it; axe is clean", async ({ page }) => {
  await signedInPage(page, "sx");
  const word = unique("srch");
  const echo = await postEcho(page.request, `Fresh <b>${word}</b> at the market, #${word} and more`, ["market"]);
  await postEcho(page.request, "an echo without the word");

  await open(page, "/search");
  const box = page.getByRole("searchbox", { name: "Search" });
  await box.fill(word.toUpperCase());
  await box.press("Enter");
  await expect(page).toHaveURL((u) => u.pathname === "/search" && u.searchParams.get("q") === word.toUpperCase());

  const results = page.getByRole("region", { name: "Echos" });
  const card = results.getByTestId("echo-card");
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute("data-echo-id", echo._id);
  // the text shows as written (the <b> is text), with both places of the word marked
  await expect(card.locator(".echo-content")).toHaveText(`Fresh <b>${word}</b> at the market, #${word} and more`);
  await expect(card.locator(".echo-content mark")).toHaveText([word, word]);
  await expect(card.locator(".echo-content b")).toHaveCount(0);

  // keyboard: from the search box, Tab reaches the result's links; Enter on Open goes to the echo
  await box.focus();
  const openLink = card.getByRole("link", { name: "Open echo" });
  for (let i = 0; i < 40 && !(await openLink.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(openLink).toBeFocused();

  for (const theme of ["light", "dark"] as const) {
    await useTheme(page, theme);
    await open(page, `/search?q=${word}`);
    await expect(results.locator(".echo-content mark").first()).toBeVisible();
    const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${theme}: ${v.id}`)).toEqual([]);
  }

  await results.getByRole("link", { name: "Open echo" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((u) => u.pathname === `/echo/${echo._id}`);
});
