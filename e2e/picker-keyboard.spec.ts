// The sidebar feed picker by keyboard (ARIA listbox): one tab stop, arrows, Home/End,
// Enter/Space choose, Escape returns to the chosen option; "All Echos" stays reachable from the
// picker and from home once the user has feeds.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectUrl, open, signedInPage } from "./helpers";
import { createFeed, main, picker, storedSelection, uniqueTag } from "./scroll-helpers";

const activeOption = (page: Page) =>
  page.evaluate(() => {
    const list = document.activeElement;
    const id = list?.getAttribute("aria-activedescendant");
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });
/** The option is drawn inside the listbox's scrolling frame (not scrolled out of it). */
const inFrame = (option: Locator) =>
  option.evaluate((el) => {
    const frame = el.parentElement!.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
  });
const title = (page: Page) => main(page).getByRole("heading", { level: 1 });

test("the picker is one tab stop; arrows, Home/End move; Enter and Space choose; Escape goes back", async ({ page }) => {
  test.setTimeout(60_000);
  await signedInPage(page, "pkk");
  const tag = uniqueTag("pkk");
  const names = ["One", "Two", "Three", "Four"].map((n) => `${n} ${tag.slice(-5)}`);
  // created oldest first: the picker lists newest first (Four, Three, Two, One)
  for (const name of names) await createFeed(page.request, name, { includedTags: [tag] });
  const [one, two, , four] = names as [string, string, string, string];

  await open(page, "/");
  await expect(title(page)).toHaveText(four);
  const list = picker(page);
  await expect(list).toHaveAttribute("tabindex", "0");
  // no focusable element inside the listbox: one tab stop
  await expect(list.locator("button, a, [tabindex='0']")).toHaveCount(0);

  await list.focus();
  expect(await activeOption(page)).toBe(four);
  await page.keyboard.press("ArrowUp");
  expect(await activeOption(page)).toBe("All Echos");
  await page.keyboard.press("End");
  expect(await activeOption(page)).toBe(one);
  // the 3-option frame scrolls with the active option (every option stays in the list)
  await expect.poll(() => inFrame(list.getByRole("option", { name: one }))).toBe(true);
  await expect.poll(() => inFrame(list.getByRole("option", { name: "All Echos" }))).toBe(false);
  await page.keyboard.press("Escape");
  expect(await activeOption(page)).toBe(four);
  await page.keyboard.press("Home");
  expect(await activeOption(page)).toBe("All Echos");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  expect(await activeOption(page)).toBe(two);
  await page.keyboard.press("Enter");
  await expectUrl(page, "/");
  await expect(title(page)).toHaveText(two);
  await expect(picker(page).getByRole("option", { name: two })).toHaveAttribute("aria-selected", "true");
  await expect(picker(page).getByRole("option", { selected: true })).toHaveCount(1);

  // All Echos from the picker, by Space
  await picker(page).focus();
  await page.keyboard.press("Home");
  await page.keyboard.press(" ");
  await expect(title(page)).toHaveText("All Echos");
  await expect(picker(page).getByRole("option", { name: "All Echos" })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => storedSelection(page)).toBe("all");
  // and the choice survives a reload, though the user has feeds (the first feed no longer wins)
  await open(page, "/");
  await expect(title(page)).toHaveText("All Echos");
});

test("home with a feed selected offers the way back to All Echos", async ({ page }) => {
  await signedInPage(page, "pka");
  const tag = uniqueTag("pka");
  const feed = await createFeed(page.request, `Only ${tag.slice(-5)}`, { includedTags: [tag] });
  await open(page, "/");
  await expect(title(page)).toHaveText(feed.name);
  await main(page).getByRole("button", { name: "Show All Echos" }).click();
  await expect(title(page)).toHaveText("All Echos");
  await expect(main(page).getByRole("button", { name: "Show All Echos" })).toHaveCount(0);
});

test("the picker loads further pages of scrolls on demand: End reaches the oldest of 14 feeds", async ({ page }) => {
  test.setTimeout(90_000);
  await signedInPage(page, "pkp");
  const tag = uniqueTag("pkp");
  const names: string[] = [];
  for (let i = 0; i < 14; i++) {
    names.push(`Feed ${String(i).padStart(2, "0")} ${tag.slice(-4)}`);
    await createFeed(page.request, names[i]!, { includedTags: [tag] });
  }
  const pages: string[] = [];
  page.on("request", (req) => req.url().includes("/api/scroll/all") && pages.push(req.url()));
  await open(page, "/");
  const list = picker(page);
  await list.focus();
  // the layout holds the first page (10); End at its end asks for the next by cursor
  const nextPage = page.waitForResponse((res) => res.url().includes("/api/scroll/all"));
  await page.keyboard.press("End");
  expect((await nextPage).status()).toBe(200);
  expect(new URL(pages[0]!).searchParams.get("cursor")).toBeTruthy();
  // once the page is in, End goes on to the new last option: the oldest feed
  await expect
    .poll(async () => {
      await page.keyboard.press("End");
      return activeOption(page);
    })
    .toBe(names[0]);
  await page.keyboard.press("Enter");
  await expect(title(page)).toHaveText(names[0]!);
  // chosen from beyond the first page, it stays selected on reload
  await open(page, "/");
  await expect(title(page)).toHaveText(names[0]!);
  await expect(picker(page).getByRole("option", { name: names[0] })).toHaveAttribute("aria-selected", "true");
});
