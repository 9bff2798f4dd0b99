// Block and mute (issue 32): from a profile (Block asks first; Mute for a chosen time), then
// Settings lists both, and Unblock / Unmute work from the keyboard; axe in both themes on the
// settings lists and the profile of a blocked user.
import { expect, test, type Page } from "@playwright/test";
import { axe, WCAG_TAGS } from "./axe-helpers";
import { postEcho } from "./echo-helpers";
import { apiUser, expectToastShown, open, signedInPage, useTheme } from "./helpers";

async function expectAxeClean(page: Page, theme: "light" | "dark") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  const { violations } = await axe(page).withTags(WCAG_TAGS).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id), theme).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test(`block and mute from a profile, then undo them in Settings from the keyboard (${theme})`, async ({ page, playwright, baseURL }) => {
    await useTheme(page, theme);
    await signedInPage(page, "sfv");
    const mallory = await apiUser(playwright, baseURL, "sfm");
    const trent = await apiUser(playwright, baseURL, "sft");
    await postEcho(mallory.request, "an echo by mallory");
    await postEcho(trent.request, "an echo by trent");

    // Block, confirmed: their echos leave the profile
    await open(page, `/user/${mallory.user._id}`);
    await expect(page.getByText("an echo by mallory")).toBeVisible();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Block" }).click();
    await expectToastShown(page, `Blocked @${mallory.user.userName}`);
    await expect(page.getByRole("button", { name: "Unblock" })).toBeVisible();
    await expect(page.getByText(`You block @${mallory.user.userName}`)).toBeVisible();
    await open(page, `/user/${mallory.user._id}`);
    await expect(page.getByText(`You block @${mallory.user.userName}`)).toBeVisible();
    await expect(page.getByText("an echo by mallory")).toBeHidden();
    await expectAxeClean(page, theme);

    // Mute for a day, with the keyboard: the select, then the button
    await open(page, `/user/${trent.user._id}`);
    const duration = page.getByLabel("Mute for");
    await duration.focus();
    await duration.selectOption("1d");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Mute", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expectToastShown(page, `Muted @${trent.user.userName}`);
    await expect(page.getByRole("button", { name: "Unmute" })).toBeVisible();
    await open(page, `/user/${trent.user._id}`);
    await expect(page.getByText("an echo by trent")).toBeHidden();

    // Settings lists both
    await open(page, "/settings");
    const blocks = page.getByRole("region", { name: "Blocked accounts" });
    const mutes = page.getByRole("region", { name: "Muted accounts" });
    await expect(blocks.getByRole("link", { name: `@${mallory.user.userName}` })).toBeVisible();
    await expect(mutes.getByRole("link", { name: `@${trent.user.userName}` })).toBeVisible();
    await expect(mutes.getByText(/until /)).toBeVisible();
    await expectAxeClean(page, theme);

    // Unblock from the keyboard: Tab from the account's link reaches its button
    await blocks.getByRole("link", { name: `@${mallory.user.userName}` }).focus();
    await page.keyboard.press("Tab");
    const unblock = blocks.getByRole("button", { name: `Unblock @${mallory.user.userName}` });
    await expect(unblock).toBeFocused();
    await page.keyboard.press("Enter");
    await expectToastShown(page, `Unblocked @${mallory.user.userName}`);
    await expect(blocks.getByText("Unblocked")).toBeVisible();
    await mutes.getByRole("link", { name: `@${trent.user.userName}` }).focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expectToastShown(page, `Unmuted @${trent.user.userName}`);

    // back again: the lists are empty and say so; the echos are back on the profile
    await open(page, "/settings");
    await expect(blocks.getByText("You haven't blocked anyone.")).toBeVisible();
    await expect(mutes.getByText("You haven't muted anyone.")).toBeVisible();
    await open(page, `/user/${mallory.user._id}`);
    await expect(page.getByText("an echo by mallory")).toBeVisible();
    await Promise.all([mallory.request.dispose(), trent.request.dispose()]);
  });
}
