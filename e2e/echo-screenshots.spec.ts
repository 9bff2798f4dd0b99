// Screenshots of the echo screens for a person to look at (not assertions): light and dark,
// 1280x800 and 390x800, into screenshots/ (git-ignored). Off unless ECHO_SCREENSHOTS=1:
//   ECHO_SCREENSHOTS=1 TEST_BASE_URL=… npx playwright test e2e/echo-screenshots.spec.ts
import { expect, test } from "@playwright/test";
import { card, likeEcho, openMenu, postEcho } from "./echo-helpers";
import { eachScreen, open, signUp, unique, waitForApp } from "./helpers";

test.skip(!process.env.ECHO_SCREENSHOTS, "set ECHO_SCREENSHOTS=1 to take screenshots");

test("echo screens, light and dark, wide and narrow", async ({ browser, request, baseURL, playwright }) => {
  test.setTimeout(180_000);
  const tag = unique("shot");
  await signUp(request, "author");
  await postEcho(request, "A short one.", [tag]);
  await postEcho(request, "Trying out the new espresso place on the corner. The crema is unreal and the barista knows everyone by name.", [tag, "food", "life"]);
  const featured = await postEcho(
    request,
    "Long echo to see wrapping: " + "the quick brown fox jumps over the lazy dog ".repeat(8).trim() + " https://example.com/a/very/long/url/that/should/wrap/somewhere/sensible",
    [tag, "thoughts", "tech", "travel", "learning"],
  );
  await likeEcho(request, featured._id);
  const viewerApi = await playwright.request.newContext({ baseURL });
  const viewer = await signUp(viewerApi, "viewer");
  await likeEcho(viewerApi, featured._id);
  await viewerApi.dispose();

  await eachScreen(browser, baseURL, { prefix: "echo", userName: viewer.userName }, async ({ page, shot }) => {
    await open(page, "/");
    await shot("home");
    await open(page, "/new");
    await page.getByRole("textbox", { name: "What's on your mind?" }).fill("x".repeat(960));
    await page.locator("#echo-tags").pressSequentially("travel food ");
    await shot("new");
    await open(page, `/echo/${featured._id}`);
    await shot("detail");
    await openMenu(card(page, featured._id));
    await shot("menu");
    await page.getByRole("menuitem", { name: "Report" }).click();
    await expect(page.getByRole("dialog", { name: "Report echo" })).toBeVisible();
    await shot("report");
    await page.goto(`/tag/${tag}`);
    await waitForApp(page);
    await page.waitForLoadState("networkidle");
    await shot("tag");
    await open(page, `/tag/${unique("empty")}`);
    await shot("tag-empty");
  });
});
