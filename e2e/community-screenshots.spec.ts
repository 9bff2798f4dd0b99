// Screenshots of the community, browse, profile and search screens for a person to look at (not
// assertions): light and dark, 1280x800 and 390x800, into screenshots/ (git-ignored). Off unless
// COMMUNITY_SCREENSHOTS=1:
//   COMMUNITY_SCREENSHOTS=1 TEST_BASE_URL=… npx playwright test e2e/community-screenshots.spec.ts
import { test } from "@playwright/test";
import { postEcho } from "./echo-helpers";
import { apiUser, eachScreen, open, signUp, unique } from "./helpers";
import { rank } from "./community-helpers";
import { createScroll } from "./scroll-helpers";

test.skip(!process.env.COMMUNITY_SCREENSHOTS, "set COMMUNITY_SCREENSHOTS=1 to take screenshots");

test("community screens, light and dark, wide and narrow", async ({ browser, request, baseURL, playwright }) => {
  test.setTimeout(240_000);
  const viewer = await signUp(request, "shotme");
  await request.patch("/api/profile/me", { data: { bio: "Birdwatcher, amateur baker and occasional poet." } });
  const tag = unique("shot").slice(0, 16);
  for (let i = 0; i < 12; i++) await postEcho(request, `Echo number ${i} about #${tag}: a morning walk, coffee and notes.`, [tag, i % 2 ? "life" : "food"]);
  await createScroll(request, { name: "Morning reads", type: "feed", description: "Slow news and long essays" });
  const other = await apiUser(playwright, baseURL, "shotother");
  const star = await postEcho(other.request, "A much liked echo for the popular page. Fresh bread is the best thing about Sundays.", [tag, "food"]);
  await createScroll(other.request, { name: "Best of the week", type: "curation", description: "Hand picked" });
  await other.request.post(`/api/profile/user/${viewer._id}/follow`);
  for (let i = 0; i < 3; i++) {
    const fan = await apiUser(playwright, baseURL, `shotfan${i}`);
    await fan.request.post(`/api/echo/like/${star._id}`);
    await fan.request.dispose();
  }
  await other.request.dispose();
  await rank(request);

  await eachScreen(browser, baseURL, { prefix: "community", userName: viewer.userName }, async ({ page, shot }) => {
    await open(page, "/community");
    await shot("community");
    await open(page, "/browse/tags");
    await shot("tags-card");
    await page.getByRole("tab", { name: "Cloud View" }).click();
    await shot("tags-cloud");
    await open(page, "/browse/popular?period=all&sort=likes");
    await shot("popular");
    await open(page, "/profile");
    await shot("profile");
    await open(page, `/user/${other.user._id}`);
    await shot("user");
    await open(page, `/search?q=${encodeURIComponent(tag.slice(0, 8))}`);
    await shot("search");
  });
});
