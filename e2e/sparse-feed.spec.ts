// A sparse feed (issue 13): each engine page stops at its read budget, so a rule whose matches are
// far apart answers short or empty pages while more may come. The list keeps looking by itself
// for a few pages, then says it is still looking (or, while the feed's index is being built,
// that it is building it: decision 020) and offers "Load more" — never the empty state or
// "You've reached the end" while the server says there is more. Once the feed's index is built,
// its pages come from it, full.
import { expect, test } from "@playwright/test";
import { card, postEcho } from "./echo-helpers";
import { apiUser, signedInPage, waitForApp } from "./helpers";
import { createFeed, uniqueTag } from "./scroll-helpers";

test("a sparse feed keeps looking, then offers Load more, and finds the echo far down", async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  await signedInPage(page, "sp");
  const tag = uniqueTag("sp");
  const noise = uniqueTag("spx");
  // the one match, then 180 newer echos the rule passes over (several read windows' worth),
  // posted by three users (the post rate limit is per user)
  const match = await postEcho(page.request, "the only match", [tag]);
  for (let u = 0; u < 3; u++) {
    const { request } = await apiUser(playwright, baseURL, "spn");
    for (let i = 0; i < 60; i++) await postEcho(request, `passed over ${u}-${i}`, [tag, noise]);
    await request.dispose();
  }
  const feed = await createFeed(page.request, "Sparse", { includedTags: [tag], excludedTags: [noise] });

  await page.goto(`/scroll/${feed._id}`);
  await waitForApp(page);
  const status = page.getByRole("status").filter({ hasText: /Still looking for matching echos…|Building this feed…/ });
  const loadMore = status.getByRole("button", { name: "Load more" });
  let clicks = 0;
  while (!(await card(page, match._id).isVisible())) {
    expect(clicks, "the match is found within a few clicks").toBeLessThan(5);
    await expect(page.getByText("You've reached the end")).toHaveCount(0);
    await expect(page.getByText("No echos match your filters")).toHaveCount(0);
    await expect(loadMore.or(card(page, match._id))).toBeVisible({ timeout: 30_000 });
    if (await loadMore.isVisible()) {
      await loadMore.focus();
      await page.keyboard.press("Enter");
      clicks++;
    }
  }
  await expect(page.getByText("You've reached the end")).toBeVisible();
  await expect(status).toHaveCount(0);

  // A client paging by number alone (the spec's own client) pages on to the end: each numbered
  // page continues where the one before ended (the echo_pages cookie), never a 400.
  const seen: string[] = [];
  for (let n = 1; n <= 20; n++) {
    const res = await page.request.get(`/api/scroll/${feed._id}/echos?limit=20&page=${n}`);
    expect(res.status(), `page ${n}`).toBe(200);
    const body = await res.json();
    seen.push(...body.echos.map((e: { _id: string }) => e._id));
    if (!body.pagination.hasMore) break;
  }
  expect(seen).toEqual([match._id]);
});
