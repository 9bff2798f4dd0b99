// Issue 16 in Chromium: the live preview on the scroll form, "Why am I seeing this?" on feed
// echos (and the creator's "why isn't it?" from an echo's page), and forking a public feed.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { postEcho } from "./echo-helpers";
import { open, signedInPage } from "./helpers";
import { createFeed, uniqueTag } from "./scroll-helpers";

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

test.describe.configure({ timeout: 90_000 });

test("the scroll form previews the rule live: matching echos and how many match", async ({ page }) => {
  await signedInPage(page, "pv");
  const tag = uniqueTag("pv");
  await postEcho(page.request, "first preview echo", [tag]);
  await postEcho(page.request, "second preview echo", [tag, "hidden"]);
  await postEcho(page.request, "third preview echo", [tag]);
  await open(page, "/scroll/new");
  const count = page.getByTestId("preview-count");
  await page.locator("#include-tags").fill(tag);
  await page.locator("#include-tags").press("Enter");
  await expect(count).toHaveText("3 echos match", { timeout: 15_000 });
  await expect(page.getByRole("list", { name: "Matching echos" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByTestId("preview-echo").first()).toContainText("third preview echo");
  await page.locator("#exclude-tags").fill("hidden");
  await page.locator("#exclude-tags").press("Enter");
  await expect(count).toHaveText("2 echos match", { timeout: 15_000 });
  await expect(page.getByTestId("preview-echo")).toHaveCount(2);
  // an impossible rule: nothing matches, and the panel says so
  await page.locator("#exclude-tags").fill(tag);
  await page.locator("#exclude-tags").press("Enter");
  await expect(count).toHaveText("0 echos match", { timeout: 15_000 });
  await expect(page.getByText("No echos match your filters")).toBeVisible();
  await expectAxeClean(page);
});

test("the edit screen previews the saved rule", async ({ page }) => {
  await signedInPage(page, "pe");
  const tag = uniqueTag("pe");
  await postEcho(page.request, "only echo for the edit preview", [tag]);
  const feed = await createFeed(page.request, "Edit preview", { includedTags: [tag] });
  await open(page, `/scroll/${feed._id}/edit`);
  await expect(page.getByTestId("preview-count")).toHaveText("1 echo matches", { timeout: 15_000 });
  await expect(page.getByTestId("preview-echo")).toHaveText(/only echo for the edit preview/);
});
