// A new user's first hour (issue 29), the rest: the sidebar picker (item 7) and the small things
// of item 15 (toast contrast, Popular's periods on a phone, the Feed/Curation switch by keyboard,
// mentions in right-to-left text), each checked the way the user met it.
import { expect, test, type Page } from "@playwright/test";
import { card, postEcho } from "./echo-helpers";
import { open, signedInPage, THEMES, toast, useTheme } from "./helpers";
import { createFeed, main, picker, pickerOptions, rightPanel, uniqueTag } from "./scroll-helpers";

const sidebar = (page: Page) => page.getByRole("complementary", { name: "Sidebar" });

test.describe("the sidebar picker", () => {
  test("every scroll is in the list: 3 show at once, the rest scroll into view, and the last can be chosen by mouse", async ({ page }) => {
    await signedInPage(page, "pkall");
    const tag = uniqueTag("pkall");
    const names = Array.from({ length: 6 }, (_, i) => `Feed ${i} ${tag.slice(-5)}`);
    // created oldest first: the picker lists newest first, so names[0] is last
    for (const name of names) await createFeed(page.request, name, { includedTags: [tag] });
    await page.setViewportSize({ width: 1366, height: 900 });
    await open(page, "/");
    // All Echos and the 6 feeds, every one an option of the listbox (it rendered only 3)
    await expect(pickerOptions(page)).toHaveCount(7);
    // the spec's 3 at once: the frame is three options tall
    const frame = (await picker(page).boundingBox())!;
    const option = (await pickerOptions(page).first().boundingBox())!;
    expect(Math.round(frame.height / option.height)).toBe(3);
    // the wheel scrolls the list itself to the oldest feed, which a click then chooses
    const last = picker(page).getByRole("option", { name: names[0] });
    await expect(last).not.toBeInViewport({ ratio: 1 });
    // the ▲/▼ shortcuts say where the frame is: at the top ▲ has nothing to show
    const up = sidebar(page).getByRole("button", { name: "Previous scrolls" });
    const down = sidebar(page).getByRole("button", { name: "More scrolls" });
    await expect(up).toBeDisabled();
    await expect(down).toBeEnabled();
    await picker(page).hover();
    await page.mouse.wheel(0, 400);
    await expect.poll(() => last.evaluate((el) => {
      const list = el.parentElement!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
    })).toBe(true);
    // at the end, with every scroll loaded, ▼ has nothing more
    await expect(down).toBeDisabled();
    await expect(up).toBeEnabled();
    await last.click();
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText(names[0]!);
    await expect(last).toHaveAttribute("aria-selected", "true");
  });

  test("the choice is selected on Home only: Search, Popular and a scroll's page select nothing", async ({ page }) => {
    await signedInPage(page, "pksel");
    const tag = uniqueTag("pksel");
    const feed = await createFeed(page.request, `Chosen ${tag.slice(-5)}`, { includedTags: [tag] });
    await open(page, "/");
    await expect(picker(page).getByRole("option", { name: feed.name })).toHaveAttribute("aria-selected", "true");
    for (const path of ["/search", "/browse/popular", `/scroll/${feed._id}`, "/settings"]) {
      await open(page, path);
      await expect(pickerOptions(page), path).toHaveCount(2);
      await expect(picker(page).getByRole("option", { selected: true }), path).toHaveCount(0);
      await expect(picker(page).locator(".picker-item.selected"), path).toHaveCount(0);
    }
    // back on Home (through the sidebar's Feed link) the choice shows again
    await sidebar(page).getByRole("link", { name: "Feed", exact: true }).click();
    await expect(picker(page).getByRole("option", { name: feed.name })).toHaveAttribute("aria-selected", "true");
  });

  test("a new user's empty Home offers Create Scroll once; another page once too", async ({ page }) => {
    await signedInPage(page, "pkone");
    const createScroll = page.getByRole("link", { name: "Create Scroll", exact: true }).filter({ visible: true });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, "/");
      await expect(createScroll, `home @${width}`).toHaveCount(1);
      await expect(main(page).getByRole("link", { name: "Create Scroll" })).toBeVisible();
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await open(page, "/browse/tags");
    await expect(createScroll).toHaveCount(1);
    await expect(sidebar(page).getByRole("link", { name: "Create Scroll" })).toBeVisible();
    await expect(rightPanel(page).getByRole("link", { name: "Create Scroll" })).toBeHidden();
  });
});

test.describe("small things a first hour meets, the rest", () => {
  for (const theme of THEMES) {
    test(`a toast's text is at full contrast from its first frame (${theme})`, async ({ page }) => {
      await signedInPage(page, "tst");
      await useTheme(page, theme);
      await open(page, "/new");
      await page.getByRole("textbox", { name: "What's on your mind?" }).fill("A toast to contrast");
      await page.getByRole("button", { name: "Post", exact: true }).click();
      const status = toast(page, "Echo posted successfully");
      await expect(status).toBeVisible();
      // at its first frame (the library fades it in from half opacity), read in one go: the toast
      // goes after 2 s. Text, its background and the toast's opacity (which dims both).
      const seen = await status.evaluate((el) => {
        const bar = el.parentElement!;
        for (const a of bar.getAnimations()) {
          a.pause();
          a.currentTime = 0;
        }
        const style = getComputedStyle(bar);
        return { color: getComputedStyle(el).color, background: style.backgroundColor, opacity: Number(style.opacity) };
      });
      const page_ = theme === "dark" ? [14, 16, 22] : [246, 247, 251]; // --bg, seen through a faded toast
      const rgb = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number);
      const blend = (c: number[]) => c.map((v, i) => v * seen.opacity + page_[i]! * (1 - seen.opacity));
      const luminance = (c: number[]) => {
        const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const [l1, l2] = [luminance(blend(rgb(seen.color))), luminance(blend(rgb(seen.background)))];
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      expect(ratio, JSON.stringify(seen)).toBeGreaterThanOrEqual(4.5);
      // in the theme's colours (a white toast glared on the dark theme)
      expect(seen.background).toBe(theme === "dark" ? "rgb(23, 26, 35)" : "rgb(255, 255, 255)");
    });
  }

  test("Popular's periods stay on one row on a 390 px phone", async ({ page }) => {
    await signedInPage(page, "pop");
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, "/browse/popular");
    const periods = page.getByRole("group", { name: "Period" }).getByRole("button");
    await expect(periods).toHaveCount(4);
    const boxes = await periods.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height, right: r.right })));
    // one line each (a wrapped label doubled its button's height), one row, inside the screen
    for (const box of boxes) {
      expect(box.height).toBeLessThan(44);
      expect(box.top).toBe(boxes[0]!.top);
      expect(box.right).toBeLessThanOrEqual(390);
    }
  });

  test("the Feed/Curation switch is a radio group: one Tab stop, arrows move and choose", async ({ page }) => {
    await signedInPage(page, "rad");
    await open(page, "/scroll/new");
    const group = page.getByRole("radiogroup", { name: "Scroll type" });
    const feed = group.getByRole("radio", { name: "Feed" });
    const curation = group.getByRole("radio", { name: "Curation" });
    await expect(feed).toHaveAttribute("aria-checked", "true");
    await expect(curation).toHaveAttribute("tabindex", "-1");
    await feed.focus();
    await page.keyboard.press("ArrowRight");
    await expect(curation).toBeFocused();
    await expect(curation).toHaveAttribute("aria-checked", "true");
    await expect(page.getByText("A curation holds echos you hand-pick with Save to Scroll.")).toBeVisible();
    // wraps around; Down and Up work too
    await page.keyboard.press("ArrowRight");
    await expect(feed).toBeFocused();
    await expect(feed).toHaveAttribute("aria-checked", "true");
    await page.keyboard.press("ArrowUp");
    await expect(curation).toHaveAttribute("aria-checked", "true");
    await page.keyboard.press("ArrowDown");
    await expect(feed).toHaveAttribute("aria-checked", "true");
    // Tab leaves the group from the checked radio: the name field is next
    await page.keyboard.press("Tab");
    await expect(page.getByRole("textbox", { name: "Name" })).toBeFocused();
  });

  test("in right-to-left text a mention reads @name, the @ before the name", async ({ page }) => {
    const me = await signedInPage(page, "rtl");
    const echo = await postEcho(page.request, `שלום @${me.userName} מה שלומך`);
    await open(page, `/echo/${echo._id}`);
    const mention = card(page, echo._id).locator(".echo-content").getByRole("link", { name: `@${me.userName}` });
    await expect(mention).toBeVisible();
    // where the "@" and the name are drawn: the "@" must be on the name's left
    const [at, name] = await mention.evaluate((a) => {
      const range = document.createRange();
      range.setStart(a.firstChild!, 0);
      range.setEnd(a.firstChild!, 1);
      return [range.getBoundingClientRect().left, a.querySelector("bdi")!.getBoundingClientRect().left];
    });
    expect(at).toBeLessThan(name);
  });
});
