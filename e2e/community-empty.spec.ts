// Empty states of the global community lists. They can only be seen on a store nobody has written
// to, so this file runs only on request against a fresh server:
//   E2E_EMPTY_STORE=1 TEST_BASE_URL=<fresh server> npx playwright test e2e/community-empty.spec.ts
// (signing up writes a user only: no scroll, echo or tag). Skipped in the normal shared run.
import { expect, test } from "@playwright/test";
import { open, signedInPage } from "./helpers";
import { rank } from "./community-helpers";

test.describe.configure({ mode: "serial" });
test.skip(process.env.E2E_EMPTY_STORE !== "1", "needs an empty store: set E2E_EMPTY_STORE=1 against a fresh server");

test("empty store: every community list shows its empty text", async ({ page }) => {
  await signedInPage(page, "es");
  // no scroll, echo or tag may exist yet, or this run is not on an empty store
  const [feeds, curations, tags] = await Promise.all(
    ["/api/community/scrolls/public/feed", "/api/community/scrolls/public/curation", "/api/community/tags"].map(async (p) => (await page.request.get(p)).json()),
  );
  expect([feeds, curations, tags], "E2E_EMPTY_STORE=1 needs a fresh server").toEqual([[], [], []]);
  await rank(page.request);

  for (const path of ["/community", "/browse-community"]) {
    await open(page, path);
    for (const text of ["No public feed scrolls available yet", "No public curation scrolls available yet", "No tags available yet", "No popular echos today"]) {
      await expect(page.getByText(text, { exact: true }), `${path}: ${text}`).toBeVisible();
    }
  }
  await open(page, "/browse/scrolls");
  await expect(page.getByText("No scrolls found", { exact: true })).toBeVisible();
  await open(page, "/browse/curation");
  await expect(page.getByText("No collections found", { exact: true })).toBeVisible();
  await open(page, "/browse/tags");
  await expect(page.getByText("No tags found", { exact: true })).toBeVisible();
  await open(page, "/browse/popular");
  await expect(page.getByText("No popular echos today", { exact: true })).toBeVisible();
  await expect(page.getByTestId("popular-summary")).toHaveText("0 echos · 0 likes");
  await page.getByRole("button", { name: "All Time" }).click();
  await expect(page.getByText("No popular echos yet", { exact: true })).toBeVisible();
});
